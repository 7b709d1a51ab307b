/*
 * html_layout.js - appended by tests/suite_html_llm.sh to a copy of an HTML
 * report (the report itself has no script) so that headless chromium's
 * --dump-dom carries what the browser laid out, as lines in
 * <pre id="layout-check">:
 *   scroll-width N     the page's width in px (the window's when nothing
 *                      sticks out sideways)
 *   table-right N      the right edge of the cluster table in px; 9999 when
 *                      the table scrolls inside its box
 *   tallest-row N      the tallest table row in px (a wrapped column shows)
 *   clipped ID: TEXT   a chart text that sticks out of its SVG
 *   overlap ID: A | B  two chart texts whose boxes overlap by over 1 px
 *   covers ID: A | ..  a chart text over a point marker (circle or cross)
 *   texts N overlaps N clipped N
 */
(function () {
  var out = [], de = document.documentElement;
  out.push("scroll-width " + Math.max(de.scrollWidth, document.body.scrollWidth));
  var rows = document.querySelectorAll("table tr"), tall = 0;
  for (var i = 0; i < rows.length; i++) tall = Math.max(tall, rows[i].getBoundingClientRect().height);
  out.push("tallest-row " + Math.round(tall));
  var boxes = document.querySelectorAll(".table-box, table"), wide = 0;
  for (var i = 0; i < boxes.length; i++) wide = Math.max(wide, Math.round(boxes[i].getBoundingClientRect().right), boxes[i].scrollWidth > boxes[i].clientWidth + 1 ? 9999 : 0);
  out.push("table-right " + wide);
  var svgs = document.querySelectorAll("svg.chart"), n = 0, over = 0, clip = 0;
  for (var s = 0; s < svgs.length; s++) {
    var sr = svgs[s].getBoundingClientRect(), t = svgs[s].querySelectorAll("text"), b = [];
    for (var k = 0; k < t.length; k++) {
      var r = t[k].getBoundingClientRect();
      if (r.width == 0) continue;
      b.push([r, t[k].textContent.replace(/\s+/g, " ").trim()]);
      if (r.left < sr.left - 1 || r.right > sr.right + 1 || r.top < sr.top - 1 || r.bottom > sr.bottom + 1) {
        clip++; out.push("clipped " + svgs[s].id + ": " + b[b.length - 1][1]);
      }
    }
    var m = svgs[s].querySelectorAll("circle, path");
    for (var a = 0; a < b.length; a++) {
      n++;
      for (var c = a + 1; c < b.length; c++) {
        var p = b[a][0], q = b[c][0];
        if (Math.min(p.right, q.right) - Math.max(p.left, q.left) > 1 && Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 1) {
          over++; out.push("overlap " + svgs[s].id + ": " + b[a][1] + " | " + b[c][1]);
        }
      }
      for (var c = 0; c < m.length; c++) {
        var p = b[a][0], q = m[c].getBoundingClientRect();
        if (Math.min(p.right, q.right) - Math.max(p.left, q.left) > 1 && Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 1) {
          over++; out.push("covers " + svgs[s].id + ": " + b[a][1] + " | mark at " + Math.round(q.left) + "," + Math.round(q.top));
        }
      }
    }
  }
  out.push("texts " + n + " overlaps " + over + " clipped " + clip);
  var pre = document.createElement("pre");
  pre.id = "layout-check";
  pre.hidden = true;  /* in the DOM, not in the screenshot */
  pre.textContent = "\n" + out.join("\n") + "\n";
  document.body.appendChild(pre);
})();
