/** Vite bundles imported stylesheets into dist/app/app.css. */
declare module '*.css' {}
