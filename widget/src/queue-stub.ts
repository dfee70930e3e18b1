/**
 * The one line a page may put before the widget script so it can call ParleyWidget at once;
 * the widget replays the queued calls when it loads. docs/widget.md shows this exact line
 * (a test keeps the two the same). It never replaces a loaded widget.
 */
export const QUEUE_STUB =
  '(function(w,p){p=w.ParleyWidget=w.ParleyWidget||{q:[]};["identify","setContactDetails"].forEach(function(m){p[m]=p[m]||function(){p.q.push([m,[].slice.call(arguments)])}})})(window);'
