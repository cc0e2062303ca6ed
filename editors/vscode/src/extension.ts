// VS Code client for the PBN language server (`pbn lsp`).
//
// The server binary is, in order: the `pbn.server.path` setting, the binary
// bundled with the extension (`server/pbn`), or `pbn` on PATH. Analysis
// settings (`pbn.export`, `pbn.format.addMissingTags`) go to the server as
// initializationOptions and, when they change, as
// workspace/didChangeConfiguration (`{"pbn": {...}}`).

import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

const EXE = process.platform === "win32" ? "pbn.exe" : "pbn";

let client: LanguageClient | undefined;
let outputChannel: vscode.OutputChannel | undefined;
let traceChannel: vscode.OutputChannel | undefined;

interface ServerLocation {
  command: string;
  source: "setting" | "bundled" | "PATH";
}

/** Expands `~` and `${workspaceFolder}`; relative paths are taken from the first workspace folder. */
function expandPath(p: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  let out = p.trim();
  if (out === "~" || out.startsWith("~/")) {
    out = path.join(os.homedir(), out.slice(1));
  }
  if (folder) {
    out = out.replace(/\$\{workspaceFolder\}/g, folder);
    if (!path.isAbsolute(out) && (out.includes("/") || out.includes("\\"))) {
      out = path.join(folder, out);
    }
  }
  return out;
}

function isExecutableFile(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) {
      return false;
    }
    if (process.platform !== "win32") {
      fs.accessSync(p, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

function findOnPath(name: string): string | undefined {
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter((d) => d.length > 0);
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) {
      return candidate;
    }
  }
  return undefined;
}

/** Finds the server binary, or returns an error message saying what was tried. */
function locateServer(context: vscode.ExtensionContext): ServerLocation | string {
  const config = vscode.workspace.getConfiguration("pbn");
  const configured = (config.get<string>("server.path") ?? "").trim();
  if (configured.length > 0) {
    const expanded = expandPath(configured);
    // A bare name ("pbn") is looked up on PATH.
    const isBareName = !expanded.includes("/") && !expanded.includes("\\");
    const resolved = isBareName ? findOnPath(expanded) : expanded;
    if (resolved && isExecutableFile(resolved)) {
      return { command: resolved, source: "setting" };
    }
    return (
      `The PBN language server was not found at "${configured}" (setting pbn.server.path)` +
      (resolved && resolved !== configured ? ` → ${resolved}` : "") +
      ": no executable file there."
    );
  }
  const bundled = context.asAbsolutePath(path.join("server", EXE));
  if (isExecutableFile(bundled)) {
    return { command: bundled, source: "bundled" };
  }
  const onPath = findOnPath(EXE);
  if (onPath) {
    return { command: onPath, source: "PATH" };
  }
  return (
    `The PBN language server binary "${EXE}" was not found: pbn.server.path is not set, ` +
    `no binary is bundled with the extension, and "${EXE}" is not on PATH.`
  );
}

/** The settings the server reads (initializationOptions and didChangeConfiguration). */
function serverSettings(): { export: boolean; addMissingTags: boolean; format: { addMissingTags: boolean } } {
  const config = vscode.workspace.getConfiguration("pbn");
  const addMissingTags = config.get<boolean>("format.addMissingTags", true);
  return { export: config.get<boolean>("export", false), addMissingTags, format: { addMissingTags } };
}

async function showMissingServer(message: string): Promise<void> {
  const openSettings = "Open Settings";
  const showLog = "Show Log";
  const choice = await vscode.window.showErrorMessage(
    `PBN: ${message} Build it with \`cargo build --release -p pbn\` (or install it with \`cargo install --path server\`) ` +
      `and set "pbn.server.path" to the binary.`,
    openSettings,
    showLog
  );
  if (choice === openSettings) {
    await vscode.commands.executeCommand("workbench.action.openSettings", "pbn.server.path");
  } else if (choice === showLog) {
    outputChannel?.show(true);
  }
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  outputChannel ??= vscode.window.createOutputChannel("PBN Language Server");
  traceChannel ??= vscode.window.createOutputChannel("PBN Language Server Trace");

  const location = locateServer(context);
  if (typeof location === "string") {
    outputChannel.appendLine(`[pbn] ${location}`);
    void showMissingServer(location);
    return;
  }
  const extraArgs = vscode.workspace.getConfiguration("pbn").get<string[]>("server.extraArgs", []) ?? [];
  const args = ["lsp", ...extraArgs];
  outputChannel.appendLine(`[pbn] starting ${location.command} ${args.join(" ")} (from ${location.source})`);

  const serverOptions: ServerOptions = {
    run: { command: location.command, args, transport: TransportKind.stdio },
    debug: { command: location.command, args, transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "pbn" },
      { scheme: "untitled", language: "pbn" },
    ],
    initializationOptions: serverSettings(),
    synchronize: {
      // Sends workspace/didChangeConfiguration with {"pbn": {...}} on change.
      configurationSection: "pbn",
      fileEvents: vscode.workspace.createFileSystemWatcher("**/pbn.toml"),
    },
    outputChannel,
    traceOutputChannel: traceChannel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    middleware: {
      // The server's pbn.convertGame returns the converted games; VS Code
      // would drop the result of a code action's command.
      executeCommand: async (command, args, next) => {
        const result = await next(command, args);
        if (command === "pbn.convertGame") {
          await showConverted(result);
        }
        return result;
      },
    },
  };

  const newClient = new LanguageClient("pbn", "PBN Language Server", serverOptions, clientOptions);
  client = newClient;
  try {
    await newClient.start();
  } catch (err) {
    client = undefined;
    const msg = err instanceof Error ? err.message : String(err);
    outputChannel.appendLine(`[pbn] failed to start ${location.command}: ${msg}`);
    void showMissingServer(`The PBN language server (${location.command}) failed to start: ${msg}.`);
  }
}

async function stopClient(): Promise<void> {
  const old = client;
  client = undefined;
  if (old) {
    try {
      await old.stop();
    } catch {
      // already gone
    }
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("pbn.restartServer", async () => {
      await stopClient();
      await startClient(context);
    }),
    vscode.commands.registerCommand("pbn.showOutput", () => outputChannel?.show(true)),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      // A different binary or arguments need a new server process; the other
      // settings reach the running server through didChangeConfiguration.
      if (e.affectsConfiguration("pbn.server.path") || e.affectsConfiguration("pbn.server.extraArgs")) {
        await stopClient();
        await startClient(context);
      }
    }),
    { dispose: () => void stopClient() }
  );
  await startClient(context);
}

export async function deactivate(): Promise<void> {
  await stopClient();
}

/** The result of the server's `pbn.convertGame` (editors/README.md). */
interface Converted {
  format: string;
  action: "copy" | "open";
  language: string;
  title: string;
  text: string;
  losses: string[];
}

/**
 * Forum notation to the clipboard, RBN and LIN in a new untitled document;
 * what the target format cannot hold as a warning.
 */
async function showConverted(result: unknown): Promise<void> {
  const r = result as Converted | undefined;
  if (!r || typeof r.text !== "string") {
    return;
  }
  if (r.action === "copy") {
    await vscode.env.clipboard.writeText(r.text);
    void vscode.window.showInformationMessage(`PBN: ${r.title}: copied to the clipboard.`);
  } else {
    const doc = await vscode.workspace.openTextDocument({ content: r.text, language: r.language || "plaintext" });
    await vscode.window.showTextDocument(doc, { preview: false });
  }
  if (Array.isArray(r.losses) && r.losses.length > 0) {
    void vscode.window.showWarningMessage(
      `PBN: not carried over to ${r.format.toUpperCase()}: ${r.losses.join("; ")}`,
    );
  }
}
