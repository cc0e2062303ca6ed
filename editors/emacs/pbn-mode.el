;;; pbn-mode.el --- Major mode for Portable Bridge Notation (PBN) files  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1"))
;; Keywords: languages, games
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; A major mode for PBN 2.1 files (*.pbn): syntax table (`{...}' and `;'
;; comments, strings), font-lock for tags, strings, calls, cards, NAGs,
;; note references and `%' escape lines, and a registration of the `pbn lsp'
;; language server with Eglot (diagnostics with PBN codes, hover,
;; go-to-definition of notes, rename, formatting, completion, ...).
;;
;; Set-up:
;;
;;   (add-to-list 'load-path "/path/to/editors/emacs")
;;   (require 'pbn-mode)
;;   (add-hook 'pbn-mode-hook #'eglot-ensure)   ; start `pbn lsp' automatically
;;   (setq pbn-format-on-save t)                 ; optional: export format on save
;;
;; The `pbn' binary must be on `exec-path' (or set `pbn-program').

;;; Code:

(defgroup pbn nil
  "Portable Bridge Notation files."
  :group 'languages
  :prefix "pbn-")

(defcustom pbn-program "pbn"
  "The `pbn' executable (used by `pbn-format-buffer' without Eglot)."
  :type 'string)

(defcustom pbn-format-on-save nil
  "When non-nil, format PBN buffers (export format) before saving.
Uses Eglot's formatting when Eglot manages the buffer, else `pbn fmt -'."
  :type 'boolean)

;;;; Faces

(defface pbn-escape-face '((t :inherit font-lock-preprocessor-face))
  "Face for `%' escape lines (e.g. `% PBN 2.1', `% EXPORT').")
(defface pbn-tag-face '((t :inherit font-lock-variable-name-face))
  "Face for tag names.")
(defface pbn-section-tag-face '((t :inherit font-lock-keyword-face))
  "Face for the Auction, Play and Note tag names.")
(defface pbn-call-face '((t :inherit font-lock-constant-face))
  "Face for calls (bids, Pass, X, XX, AP).")
(defface pbn-card-face '((t :inherit font-lock-type-face))
  "Face for cards.")
(defface pbn-nag-face '((t :inherit font-lock-builtin-face))
  "Face for NAGs (`$n') and suffixes (`!', `?').")
(defface pbn-note-ref-face '((t :inherit font-lock-function-name-face))
  "Face for note references (`=n=').")
(defface pbn-irregularity-face '((t :inherit font-lock-warning-face))
  "Face for irregularities (`^S', `^I', `^R', `^L').")
(defface pbn-terminator-face '((t :inherit font-lock-negation-char-face))
  "Face for `*' and `+'.")

;;;; Syntax

(defvar pbn-mode-syntax-table
  (let ((st (make-syntax-table)))
    ;; `;' to the end of the line: comment style a.
    (modify-syntax-entry ?\; "<" st)
    (modify-syntax-entry ?\n ">" st)
    ;; `{' to `}', may span lines: comment style b.
    (modify-syntax-entry ?\{ "< b" st)
    (modify-syntax-entry ?\} "> b" st)
    (modify-syntax-entry ?\" "\"" st)
    (modify-syntax-entry ?\\ "\\" st)
    (modify-syntax-entry ?\[ "(]" st)
    (modify-syntax-entry ?\] ")[" st)
    ;; Word characters of calls and cards (§3.2).
    (modify-syntax-entry ?_ "_" st)
    (modify-syntax-entry ?- "_" st)
    (dolist (c '(?= ?$ ?^ ?* ?+ ?! ?? ?% ?:))
      (modify-syntax-entry c "." st))
    st)
  "Syntax table for `pbn-mode'.")

(defun pbn--outside-comment-p (pos)
  "Non-nil when POS is in neither a comment nor a string."
  (not (nth 8 (save-excursion (syntax-ppss pos)))))

(defconst pbn--syntax-propertize
  (syntax-propertize-rules
   ;; §2.4: `%' in column 0 starts an escape line (to the end of the line).
   ("^\\(%\\)"
    (1 (when (pbn--outside-comment-p (match-beginning 1))
         (string-to-syntax "<"))))
   ;; §3.2: a string ends at its line; an unterminated one is closed there
   ;; so that the next lines are not taken for string contents.
   ("\\(\"\\)\\(?:[^\"\\\n]\\|\\\\.\\)*\\(?:\"\\|\\(\n\\)\\)"
    (1 (when (and (match-beginning 2)
                  (pbn--outside-comment-p (match-beginning 1)))
         (string-to-syntax "|")))
    (2 (when (and (match-beginning 2)
                  (pbn--outside-comment-p (match-beginning 1)))
         (string-to-syntax "|")))))
  "Syntax properties for escape lines and unterminated strings.")

(defun pbn--syntactic-face (state)
  "Face for the string or comment described by the `syntax-ppss' STATE."
  (cond ((nth 3 state) font-lock-string-face)
        ((eq (char-after (nth 8 state)) ?%) 'pbn-escape-face)
        (t font-lock-comment-face)))

;;;; Font lock

(defconst pbn-font-lock-keywords
  `(;; §3.3 tag names
    ("\\[[ \t]*\\(\\(?:Auction\\|Play\\|Note\\)\\)\\_>" 1 'pbn-section-tag-face)
    ("\\[[ \t]*\\([A-Za-z0-9_]+\\)" 1 'pbn-tag-face)
    ;; §3.5.4 note references, §3.7 NAGs, §3.5.3 suffixes, §3.9 irregularities
    ("=[^]=[:space:][{};\"%]*=" . 'pbn-note-ref-face)
    ("\\$[A-Za-z0-9]*" . 'pbn-nag-face)
    ("[!?][!?]?" . 'pbn-nag-face)
    ("\\^[A-Za-z]" . 'pbn-irregularity-face)
    ;; §3.5.1 calls (lower case accepted, §3.11)
    (,(concat "\\_<\\(?:[1-7]\\(?:[CDHScdhs]\\|[Nn][Tt]\\)"
              "\\|[Pp][Aa][Ss][Ss]\\|[Xx][Xx]?\\|[Aa][Pp]\\)\\_>")
     . 'pbn-call-face)
    ;; §3.6.1 cards
    ("\\_<[SHDCshdc][AKQJTakqjt2-9]\\_>" . 'pbn-card-face)
    ;; §3.5/§3.6 `*' and `+'
    ("[*+]" . 'pbn-terminator-face))
  "Font-lock keywords for `pbn-mode'.")

;;;; Formatting

(declare-function eglot-managed-p "eglot")
(declare-function eglot-format-buffer "eglot")
(defvar eglot-server-programs)

(defun pbn--eglot-managed-p ()
  (and (fboundp 'eglot-managed-p) (eglot-managed-p)))

(defun pbn-format-buffer ()
  "Format the buffer in PBN export format.
With Eglot managing the buffer this is `eglot-format-buffer'; otherwise
the buffer is piped through `pbn fmt -'."
  (interactive)
  (if (pbn--eglot-managed-p)
      (eglot-format-buffer)
    (let ((out (generate-new-buffer " *pbn fmt*"))
          (err (make-temp-file "pbn-fmt")))
      (unwind-protect
          (let* ((coding-system-for-read 'utf-8)
                 (coding-system-for-write 'utf-8)
                 (status (save-restriction
                           (widen)
                           (call-process-region (point-min) (point-max) pbn-program
                                                nil (list out err) nil "fmt" "-"))))
            (if (eql status 0)
                (save-restriction
                  (widen)
                  (if (fboundp 'replace-buffer-contents)
                      (replace-buffer-contents out)
                    (let ((p (point)))
                      (erase-buffer)
                      (insert-buffer-substring out)
                      (goto-char (min p (point-max))))))
              (message "pbn fmt failed (%s): %s" status
                       (with-temp-buffer
                         (insert-file-contents err)
                         (string-trim (buffer-string))))))
        (kill-buffer out)
        (delete-file err)))))

(defun pbn--before-save ()
  (when pbn-format-on-save
    (pbn-format-buffer)))

;;;; Mode

(defvar pbn-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c C-f") #'pbn-format-buffer)
    map)
  "Keymap for `pbn-mode'.")

;;;###autoload
(define-derived-mode pbn-mode prog-mode "PBN"
  "Major mode for Portable Bridge Notation (PBN 2.1) files.

\\{pbn-mode-map}"
  :syntax-table pbn-mode-syntax-table
  (setq-local comment-start "; ")
  (setq-local comment-end "")
  (setq-local comment-start-skip ";+[ \t]*")
  (setq-local syntax-propertize-function pbn--syntax-propertize)
  (setq-local font-lock-defaults
              '(pbn-font-lock-keywords nil nil nil nil
                (font-lock-syntactic-face-function . pbn--syntactic-face)))
  (setq-local indent-tabs-mode nil)
  ;; Games are separated by empty lines (§3).
  (setq-local paragraph-start "[ \t]*$")
  (setq-local imenu-generic-expression
              '((nil "^\\[Board[ \t]+\"\\([^\"]*\\)\"" 1)))
  (add-hook 'before-save-hook #'pbn--before-save nil t))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.[Pp][Bb][Nn]\\'" . pbn-mode))

;;;; Eglot

;;;###autoload
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(pbn-mode "pbn" "lsp")))

(provide 'pbn-mode)
;;; pbn-mode.el ends here
