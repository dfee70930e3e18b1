/**
 * The one HTML page of the app at /app and every path under it (the app's router reads the
 * path, so deep links work). It only names the script and stylesheet by their content hash:
 * nothing inline, so the page runs under the strict Content-Security-Policy.
 */
export function appPage(scriptPath: string, stylesPath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<link rel="icon" href="data:,">
<title>Parley desk</title>
<link rel="stylesheet" href="${stylesPath}">
<script type="module" src="${scriptPath}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The Parley desk needs JavaScript.</noscript>
</body>
</html>
`
}
