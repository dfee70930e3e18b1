/**
 * Imported first by the CLI entry, before Elysia reads it: in production mode Elysia's
 * validation errors do not pretty-print the whole input with an example value beside it, work
 * quadratic in a body's depth that nobody reads (the renderer builds its own problem from the
 * error's details). Parley has no other mode, so it is set whatever the environment says.
 */
process.env.NODE_ENV = 'production'
