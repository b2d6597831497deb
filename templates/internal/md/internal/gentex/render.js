// Reads a JSON array of TeX strings on stdin and writes a JSON array of
// their MathML (KaTeX, inline, errors thrown) on stdout. Argument: the path
// of KaTeX's dist/katex.js.
"use strict";
const katex = require(process.argv[2]);
const tex = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = tex.map((t) =>
  katex.renderToString(t, { output: "mathml", throwOnError: true, displayMode: false }),
);
process.stdout.write(JSON.stringify(out));
