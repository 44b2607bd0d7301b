// The REPL module.
