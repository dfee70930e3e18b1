/**
 * The script of the widget preview page. The console frames the page with the settings it
 * has not saved yet after `#` (JSON: widget_key, name, greeting_message, widget_config), and
 * this loads the real /widget.js with that key, answering its configuration request with
 * those settings in place of the saved ones. Everything else (the socket, the chat) is the
 * live widget's: the socket admits this page for a signed-in person of the chatbot's
 * workspace even when allowed_domains leave Parley's host out, and when it refuses, the
 * framing console is told why. Shown on every path (allowed_paths is not applied here).
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
      var boot = { name: preview.name || '', greeting_message: preview.greeting_message || null, widget_config: settings, socket_path: '/widget/v1/socket?key=' + encodeURIComponent(preview.widget_key) }
      return Promise.resolve(new Response(JSON.stringify(boot), { status: 200, headers: { 'content-type': 'application/json' } }))
    }
    return realFetch(input, init)
  }
  // The console says why the preview cannot chat: the socket's refusal (a 4xxx close) is
  // told to the framing console page, which is this page's own origin.
  var RealSocket = window.WebSocket
  var tell = function (message) { if (window.parent !== window) window.parent.postMessage(Object.assign({ type: 'parley-preview' }, message), location.origin) }
  window.WebSocket = class extends RealSocket {
    constructor(url, protocols) {
      super(url, protocols)
      this.addEventListener('open', function () { tell({ connected: true }) })
      this.addEventListener('close', function (event) { if (event.code >= 4000 && event.code < 5000) tell({ connected: false, code: event.code, reason: event.reason }) })
    }
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
