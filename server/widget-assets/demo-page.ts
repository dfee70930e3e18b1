/**
 * GET /: a page that embeds the demo chatbot's widget, so a newcomer can talk to a bot at
 * once, and shows the snippet to copy; it links to the desk and the console. Without a demo web integration it says so and points
 * to the API reference. Self-contained: no external script, style or font.
 */
export function demoPage(widgetKey: string | null, publicUrl: string): string {
  const body = widgetKey
    ? `<p>The bubble in the corner is the Parley widget, talking to the <strong>demo chatbot</strong> that was created on first start. Open it and say hello.</p>
  <h2>Put it on your site</h2>
  <p>Add this element before <code>&lt;/body&gt;</code> of any page:</p>
  <pre tabindex="0"><code>${escapeHtml(snippet(widgetKey, `${publicUrl}/widget.js?key=${widgetKey}`))}</code></pre>
  <p>The script's address is this server's public URL (<code>PARLEY_PUBLIC_URL</code>): another site loads it from there.</p>`
    : `<p class="note">There is no demo chatbot with a web integration here, so no widget is shown. Create a chatbot, publish a conversation flow and add a <code>web</code> integration through the API; its <code>widget_key</code> goes into the embed snippet.</p>`
  const script = widgetKey ? `\n<script src="/widget.js?key=${escapeHtml(widgetKey)}" data-widget-key="${escapeHtml(widgetKey)}" async></script>` : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parley</title>
<style>
  :root { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #1b1f24; background: #f7f8fa; }
  main { max-width: 720px; margin: 0 auto; padding: 48px 24px 160px; line-height: 1.55; }
  h1 { font-size: 32px; margin: 0 0 8px; }
  h2 { font-size: 20px; margin-top: 32px; }
  .lead { color: #5b6470; font-size: 18px; margin-top: 0; }
  pre { background: #fff; border: 1px solid #e3e7ec; border-radius: 8px; padding: 14px; overflow: auto; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
  .doors { background: #fff; border: 1px solid #e3e7ec; border-radius: 8px; padding: 14px; }
  .note { background: #fff8e6; border: 1px solid #f3d98b; border-radius: 8px; padding: 14px; }
  a { color: #0057d9; }
</style>
</head>
<body>
<main>
  <h1>Parley</h1>
  <p class="lead">A self-hosted chatbot platform in one binary.</p>
  <p class="doors">Your team answers visitors in the <a href="/app">desk</a>; admins set up chatbots, flows, the widget and people in the <a href="/app/console">console</a>.</p>
  ${body}
  <h2>Next steps</h2>
  <p>Read the <a href="/api/dev/v1/reference">API reference</a> (or fetch <a href="/api/dev/v1/openapi.json">the OpenAPI document</a>) to create chatbots, flows and integrations.</p>
</main>${script}
</body>
</html>
`
}

export function snippet(widgetKey: string, scriptUrl = '/widget.js'): string {
  return `<script src="${scriptUrl}" data-widget-key="${widgetKey}" async></script>`
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
