// The page's style and its one script (search as you type), served as files: the page's
// Content-Security-Policy runs no inline script or style, so nothing a note holds can run.

enum PageAssets {
    static let style = """
        body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #222; background: #fdfdfb; }
        nav { background: #2d3a4a; padding: .5em 1em; } nav a { color: #fff; margin-right: 1.2em; text-decoration: none; }
        main { max-width: 50em; margin: 1em auto; padding: 0 1em; }
        ul.notes, ul.tasks { list-style: none; padding: 0; } ul.notes > li { padding: .4em 0; border-bottom: 1px solid #eee; }
        .handle, .meta, .count, .due, .how { color: #777; font-size: .9em; }
        .category, .tag { font-size: .85em; margin-left: .4em; } .urgency { font-size: .8em; padding: 0 .4em; border-radius: .6em; background: #eee; }
        .u4, .u5 { background: #f6c5b8; } ul.first-tasks { margin: .2em 0 0 1em; font-size: .9em; color: #555; }
        .analysis { background: #f2f5f8; padding: .5em 1em; border-radius: .4em; }
        ul.tasks form { display: inline; } ul.tasks button { font-size: 1.1em; border: none; background: none; cursor: pointer; }
        li.done { color: #888; text-decoration: line-through; } .broken { color: #a33; }
        textarea { width: 100%; font: 15px/1.4 ui-monospace, monospace; } input[type=search] { width: 70%; font-size: 1em; padding: .3em; }
        .conflict { color: #a33; font-weight: bold; } pre { background: #f4f4f4; padding: .6em; overflow-x: auto; }
        .draft { color: #555; } section.answer:has(.final) .draft { display: none; }
        mark { background: #fff0a0; } .snippet { color: #555; font-size: .9em; }
        svg.graph { width: 100%; max-width: 640px; font-size: 12px; } svg.graph line { stroke-width: 1.5; }
        svg.graph circle { fill: #2d3a4a; } svg.graph circle.self { fill: #c0392b; } svg.graph text.self { font-weight: bold; }
        line.links-to { stroke: #2d6ca2; } line.links-here { stroke: #3a9a5b; } line.related { stroke: #bbb; stroke-dasharray: 4 3; }
        """

    static let script = """
        // Search as you type: the results part of /search, replaced as the query changes.
        document.addEventListener("DOMContentLoaded", () => {
          const input = document.querySelector("form.search input[name=q]");
          const results = document.getElementById("results");
          if (!input || !results) return;
          let timer = null, asked = 0;
          input.addEventListener("input", () => {
            clearTimeout(timer);
            timer = setTimeout(async () => {
              const mine = ++asked;
              const query = input.value;
              const response = await fetch("/search?partial=1&q=" + encodeURIComponent(query), { credentials: "same-origin" });
              if (mine !== asked || !response.ok) return;
              results.innerHTML = await response.text();
              history.replaceState(null, "", "/search?q=" + encodeURIComponent(query));
            }, 150);
          });
        });
        """
}
