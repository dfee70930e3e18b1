/**
 * The script of the widget preview page. The console frames the page with the settings it
 * has not saved yet after `#` (JSON: widget_key, name, greeting_message, widget_config), and
 * this loads the real /widget.js with that key, answering its configuration request with
 * those settings in place of the saved ones. Everything else (the socket, the chat) is the
 * live widget's. Shown on every path of the preview (allowed_paths is not applied here).
 */
export const PREVIEW_SCRIPT = `(function () {
  var preview
  try { preview = JSON.parse(decodeURIComponent(location.hash.slice(1))) } catch (e) { preview = null }
  if (!preview || typeof preview.widget_key !== 'string') {
    document.body.textContent = 'Nothing to preview: open this page from the console.'
    return
  }
  var realFetch = window.fetch.bind(window)
  var configPath = '/widget/v1/config/' + encodeURIComponent(preview.widget_key)
  window.fetch = function (input, init) {
    var url = typeof input === 'string' ? input : input && input.url
    if (url && new URL(url, location.href).pathname === configPath) {
      var settings = Object.assign({}, preview.widget_config, { allowed_paths: null })
      var boot = { name: preview.name || '', greeting_message: preview.greeting_message || null, widget_config: settings, socket_path: '/widget/v1/socket' }
      return Promise.resolve(new Response(JSON.stringify(boot), { status: 200, headers: { 'content-type': 'application/json' } }))
    }
    return realFetch(input, init)
  }
  var script = document.createElement('script')
  script.src = '/widget.js'
  script.setAttribute('data-widget-key', preview.widget_key)
  document.body.appendChild(script)
})()
`

export const PREVIEW_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Widget preview</title>
<link rel="icon" href="data:,">
</head>
<body>
<script src="/widget/v1/preview.js"></script>
</body>
</html>
`
