// Typesets $…$ and $$…$$ in a notebook page with the inlined KaTeX, then tells formgrader's script, which waits
// for MathJax's "End" signal before it focuses the first score box, that typesetting is over.
(function () {
  "use strict";
  // pandoc's rules, as the site's lesson_source.MATH: $$…$$, or $…$ with no space just inside either dollar
  var MATH = /\$\$([\s\S]+?)\$\$|\$([^\s$](?:[^$]*?[^\s$])?)\$(?!\d)/g;
  var SKIP = "script, style, textarea, pre, code, .katex";
  var listeners = [], finished = false;
  // student text is data: no \href, \url or \html* commands (trust), and macro and size bombs stop early (a \rule
  // or \kern at most 10 em: a planted 9999em box stays within the answer it came with)
  function katexOptions(display) {
    return {displayMode: display, throwOnError: false, trust: false, strict: "ignore", maxExpand: 500, maxSize: 10};
  }

  function typesetText(node) {
    var text = node.data, last = 0, match, pieces = document.createDocumentFragment();
    MATH.lastIndex = 0;
    while ((match = MATH.exec(text)) !== null) {
      pieces.appendChild(document.createTextNode(text.slice(last, match.index)));
      var display = match[1] !== undefined, holder = document.createElement("span");
      holder.className = display ? "math display" : "math inline";
      katex.render(display ? match[1] : match[2], holder, katexOptions(display));
      pieces.appendChild(holder);
      last = MATH.lastIndex;
    }
    if (last === 0) return;
    pieces.appendChild(document.createTextNode(text.slice(last)));
    node.parentNode.replaceChild(pieces, node);
  }

  function typeset(root) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT), nodes = [];
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.data.indexOf("$") >= 0 && !node.parentElement.closest(SKIP)) nodes.push(node);
    }
    nodes.forEach(typesetText);
  }

  window.autogradeTypeset = typeset;  // for pages that insert their content after loading (grading by question)
  window.MathJax = {Hub: {
    Config: function () {}, Queue: function () {}, Typeset: function () {},
    Startup: {signal: {Interest: function (listener) {
      if (finished) setTimeout(function () { listener("End"); }); else listeners.push(listener);
    }}}
  }};
  document.addEventListener("DOMContentLoaded", function () {
    typeset(document.body);
    finished = true;
    listeners.forEach(function (listener) { listener("End"); });
  });
})();
