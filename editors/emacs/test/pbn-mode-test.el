;;; pbn-mode-test.el --- Batch test driver for pbn-mode + Eglot  -*- lexical-binding: t; -*-

;; Run by tests/tests/editor_emacs.rs as
;;   emacs --batch -q -l editors/emacs/test/pbn-mode-test.el
;; (-q, not -Q: Debian's site start-up files activate its elpa-* packages)
;; Environment:
;;   PBN_EMACS_DIR        editors/emacs
;;   PBN_TEST_SCENARIO    font-lock | diagnostics | format | format-cli
;;   PBN_TEST_FILE        the .pbn file to open (a copy)
;;   PBN_TEST_POSITIONS   JSON list of [line, column] (1-based line, 0-based
;;                        column) whose faces are reported
;;   PBN_TEST_OUT         where to write the JSON result
;;   PBN_TEST_TIMEOUT     seconds to wait for the server (default 30)
;; The pbn binary is found on PATH.

;;; Code:

(require 'json)
(require 'cl-lib)

(defvar pbn-test--log nil)
(defun pbn-test--note (fmt &rest args)
  (push (apply #'format fmt args) pbn-test--log))

(defun pbn-test--write (result)
  (let ((json-encoding-pretty-print nil))
    (with-temp-file (getenv "PBN_TEST_OUT")
      (insert (json-encode
               (append result
                       `((log . ,(vconcat (reverse pbn-test--log)))
                         (emacs_version . ,emacs-version))))))))

(defun pbn-test--wait (what timeout pred &optional poke)
  "Wait up to TIMEOUT seconds for PRED; call POKE every half second."
  (let ((deadline (+ (float-time) timeout))
        (next-poke 0)
        value)
    (while (and (not (setq value (funcall pred)))
                (< (float-time) deadline))
      (when (and poke (>= (float-time) next-poke))
        (setq next-poke (+ (float-time) 0.5))
        (funcall poke))
      (accept-process-output nil 0.05))
    (or value (error "Timed out after %ss waiting for %s" timeout what))))

(defun pbn-test--faces (positions)
  (font-lock-ensure)
  (vconcat
   (mapcar (lambda (pos)
             (save-excursion
               (goto-char (point-min))
               (forward-line (1- (aref pos 0)))
               (forward-char (aref pos 1))
               (let ((face (get-text-property (point) 'face)))
                 `((line . ,(aref pos 0)) (column . ,(aref pos 1))
                   (char . ,(char-to-string (char-after)))
                   (faces . ,(vconcat (mapcar #'symbol-name
                                              (if (listp face) face (list face)))))))))
           positions)))

(defun pbn-test--diagnostics ()
  (vconcat
   (mapcar (lambda (d)
             (let ((beg (flymake-diagnostic-beg d)))
               `((line . ,(line-number-at-pos beg))
                 (column . ,(save-excursion (goto-char beg) (current-column)))
                 (type . ,(format "%s" (flymake-diagnostic-type d)))
                 (text . ,(flymake-diagnostic-text d)))))
           (flymake-diagnostics))))

(defun pbn-test--has-code (code)
  (cl-some (lambda (d) (string-match-p (regexp-quote code) (flymake-diagnostic-text d)))
           (flymake-diagnostics)))

;; Debian's elpa-eglot (and its elpa-* dependencies) are ELPA packages
;; under /usr/share/emacs/site-lisp/elpa, activated by Debian's site
;; start-up; package-initialize activates them where that did not happen.
(defun pbn-test--setup ()
  (require 'package)
  (package-initialize)
  (add-to-list 'load-path (getenv "PBN_EMACS_DIR"))
  (require 'pbn-mode))

(defun pbn-test--timeout ()
  (string-to-number (or (getenv "PBN_TEST_TIMEOUT") "30")))

(defun pbn-test--start-eglot ()
  "Start Eglot in the current buffer the way users do, and wait for it."
  (require 'eglot)
  (require 'flymake)
  (eglot-ensure)
  ;; eglot-ensure connects from post-command-hook: there are no commands in
  ;; batch mode, so run the hook once.
  (run-hooks 'post-command-hook)
  (pbn-test--wait "Eglot to manage the buffer" (pbn-test--timeout) #'eglot-managed-p)
  (pbn-test--note "server: %S" (ignore-errors (eglot--server-info (eglot-current-server)))))

(defvar pbn-test--scenarios nil)

(defmacro pbn-test--scenario (name &rest body)
  (declare (indent 1))
  `(push (cons ,name (lambda () ,@body)) pbn-test--scenarios))

;; The major mode and its font lock.
(pbn-test--scenario "font-lock"
  (find-file (getenv "PBN_TEST_FILE"))
  `((major_mode . ,(symbol-name major-mode))
    (comment_start . ,comment-start)
    (faces . ,(pbn-test--faces
               (json-read-from-string (or (getenv "PBN_TEST_POSITIONS") "[]"))))))

;; Eglot + Flymake: the server's diagnostics.
(pbn-test--scenario "diagnostics"
  (find-file (getenv "PBN_TEST_FILE"))
  (pbn-test--start-eglot)
  (pbn-test--wait "a PBN0003 diagnostic" (pbn-test--timeout)
                  (lambda () (pbn-test--has-code "PBN0003"))
                  ;; Flymake starts its backends from timers and commands;
                  ;; start it by hand until the report is in.
                  (lambda () (flymake-start)))
  (prog1 `((eglot_entry . ,(format "%S" (assoc 'pbn-mode eglot-server-programs)))
           (diagnostics . ,(pbn-test--diagnostics)))
    (ignore-errors (eglot-shutdown-all))))

;; pbn-format-on-save through Eglot (export format).
(pbn-test--scenario "format"
  (setq pbn-format-on-save t)
  (find-file (getenv "PBN_TEST_FILE"))
  (pbn-test--start-eglot)
  ;; an edit, so that save-buffer writes (formatting then rewrites it all)
  (goto-char (point-max))
  (insert "\n")
  (save-buffer)
  (prog1 `((modified . ,(if (buffer-modified-p) t :json-false)))
    (ignore-errors (eglot-shutdown-all))))

;; pbn-format-buffer without Eglot (`pbn fmt -').
(pbn-test--scenario "format-cli"
  (find-file (getenv "PBN_TEST_FILE"))
  (pbn-format-buffer)
  (save-buffer)
  `((eglot . ,(if (pbn--eglot-managed-p) t :json-false))))

(condition-case err
    (let ((f (cdr (assoc (getenv "PBN_TEST_SCENARIO") pbn-test--scenarios))))
      (unless f (error "Unknown scenario: %s" (getenv "PBN_TEST_SCENARIO")))
      (pbn-test--setup)
      (pbn-test--write `((ok . t) (data . ,(funcall f)))))
  (error
   (pbn-test--note "messages: %s"
                   (with-current-buffer (messages-buffer) (buffer-string)))
   (pbn-test--write `((ok . :json-false) (error . ,(error-message-string err))))))
(kill-emacs 0)

;;; pbn-mode-test.el ends here
