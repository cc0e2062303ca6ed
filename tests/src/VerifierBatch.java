import java.io.BufferedReader;
import java.io.FileReader;
import java.io.PrintStream;
import java.io.FileOutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs PbnVerifier on many files in one JVM: each file gets a fresh class loader, so the verifier's static state starts anew. */
public class VerifierBatch {
    public static void main(String[] a) throws Exception {
        URL jar = Path.of(a[0]).toUri().toURL();
        String dir = a[1];
        try (BufferedReader r = new BufferedReader(new FileReader(a[2]))) {
            String n;
            while ((n = r.readLine()) != null) {
                String exp = r.readLine();
                String f = r.readLine();
                List<String> args = new ArrayList<>(List.of(f, "-21", "-v", "-O" + dir + "/" + n + ".log"));
                if (exp.equals("1")) {
                    args.addAll(List.of("-e", "-L", "-E" + dir + "/" + n + ".exp"));
                }
                PrintStream out = System.out, err = System.err;
                try (PrintStream o = new PrintStream(new FileOutputStream(dir + "/" + n + ".out"));
                     URLClassLoader cl = new URLClassLoader(new URL[] {jar}, ClassLoader.getPlatformClassLoader())) {
                    System.setOut(o);
                    System.setErr(o);
                    cl.loadClass("PbnVerifier").getMethod("main", String[].class)
                        .invoke(null, (Object) args.toArray(new String[0]));
                } catch (Throwable t) {
                    t.printStackTrace(err);
                } finally {
                    System.setOut(out);
                    System.setErr(err);
                    for (java.awt.Frame fr : java.awt.Frame.getFrames()) fr.dispose();
                }
            }
        }
        System.exit(0);
    }
}
