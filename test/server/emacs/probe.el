;;; probe.el --- Drives dist/server.js from Emacs with eglot (a real, independent LSP client) -*- lexical-binding: t -*-
;; In batch mode: the configuration of docs/other-editors.md, then opens an HLO file, waits for
;; flymake to show the server's diagnostics, asks for a hover and for the definition under point
;; through eglot's xref backend (what M-. uses), completes a name and renames an instruction, and
;; writes what it saw as JSON. Inputs come from the environment: XLA_SERVER, XLA_FILE, XLA_LINE,
;; XLA_CHAR (the hover), XLA_DEF_LINE, XLA_DEF_CHAR (the definition), XLA_COMPLETE_LINE,
;; XLA_COMPLETE_CHAR (the completion), XLA_RENAME_LINE, XLA_RENAME_CHAR (the rename), XLA_OUT.
(require 'eglot)
(require 'json)

;; The configuration of docs/other-editors.md, with a severity override to show that
;; eglot-workspace-configuration reaches the server.
(define-derived-mode hlo-mode prog-mode "HLO"
  "Major mode for XLA HLO text dumps."
  (setq-local comment-start "// "))
(add-to-list 'auto-mode-alist '("\\.hlo\\(txt\\)?\\'" . hlo-mode))
(add-to-list 'eglot-server-programs `(hlo-mode . ("node" "--max-semi-space-size=8" ,(getenv "XLA_SERVER") "--stdio")))
(setq-default eglot-workspace-configuration
              '(:xlaLayout (:diagnostics (:severity (:tile-negative "warning")))))

(defun xla-probe--at (line char)
  "Moves point to 0-based LINE and CHAR."
  (goto-char (point-min))
  (forward-line line)
  (forward-char char))

(defun xla-probe--wait (predicate seconds)
  "Runs the event loop until PREDICATE holds or SECONDS pass; returns whether it held."
  (let ((deadline (+ (float-time) seconds)) (held nil))
    (while (and (not (setq held (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    held))

(let ((result (list))
      (out (getenv "XLA_OUT")))
  (find-file (getenv "XLA_FILE"))
  (push (cons 'mode (symbol-name major-mode)) result)
  ;; eglot-ensure connects from post-command-hook, which batch mode never runs: connect as it would.
  (apply #'eglot (eglot--guess-contact))
  (push (cons 'connected (and (eglot-current-server) t)) result)
  (push (cons 'got_diagnostics
              (and (xla-probe--wait (lambda () (flymake-start) (flymake-diagnostics)) 20) t))
        result)
  (push (cons 'diagnostics
              (vconcat
               (mapcar (lambda (d)
                         (let ((beg (flymake-diagnostic-beg d)) (end (flymake-diagnostic-end d)))
                           `((line . ,(1- (line-number-at-pos beg)))
                             (col . ,(save-excursion (goto-char beg) (current-column)))
                             (end_col . ,(save-excursion (goto-char end) (current-column)))
                             (type . ,(symbol-name (flymake-diagnostic-type d)))
                             (text . ,(flymake-diagnostic-text d)))))
                       (flymake-diagnostics))))
        result)
  (xla-probe--at (string-to-number (getenv "XLA_LINE")) (string-to-number (getenv "XLA_CHAR")))
  (let ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover (eglot--TextDocumentPositionParams))))
    (push (cons 'hover (plist-get (plist-get hover :contents) :value)) result))
  (xla-probe--at (string-to-number (getenv "XLA_DEF_LINE")) (string-to-number (getenv "XLA_DEF_CHAR")))
  (push (cons 'definitions
              (vconcat
               (mapcar (lambda (x)
                         (let ((loc (xref-item-location x)))
                           `((file . ,(xref-location-group loc)) (line . ,(1- (xref-location-line loc))))))
                       (xref-backend-definitions 'eglot (xref-backend-identifier-at-point 'eglot)))))
        result)
  ;; Completion after the `%` of `copy(%p)`, through the completion-at-point function eglot installs.
  (xla-probe--at (string-to-number (getenv "XLA_COMPLETE_LINE")) (string-to-number (getenv "XLA_COMPLETE_CHAR")))
  (let ((capf (eglot-completion-at-point)))
    (push (cons 'completions (vconcat (and capf (all-completions "" (nth 2 capf))))) result))
  ;; Rename as M-x eglot-rename does, the edit applied to the buffer.
  (xla-probe--at (string-to-number (getenv "XLA_RENAME_LINE")) (string-to-number (getenv "XLA_RENAME_CHAR")))
  (eglot-rename "input")
  (push (cons 'renamed (vconcat (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n"))) result)
  (with-temp-file out (insert (json-encode result)))
  (kill-emacs 0))
