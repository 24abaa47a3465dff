"""First-load figure of the web client: the JavaScript and CSS a browser must fetch before the
console's first page can run, gzipped, as built for production.

    .venv/bin/python bench/web_load.py

It builds the client into a temporary folder with Vite's manifest and follows the entry's static
imports (what the browser fetches at once; lazy routes are listed apart). The UI text comes in
one chunk per language (`locale-<language>`), fetched before the first page renders: the total
counts the one of FIRST_LANGUAGE. Figures are printed, never asserted; the last line is the total.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIRST_LANGUAGE = "en-US"
LOCALE_CHUNK = re.compile(r"(?:^|/)locale-([\w-]+?)-[\w-]{8}\.js$")


def gzipped(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=9))


def build(out: Path) -> dict:
    subprocess.run(["npx", "vite", "build", "--config", "web/vite.config.ts", "--outDir", str(out),
                    "--emptyOutDir", "--manifest", "--logLevel", "warn"], cwd=REPO, check=True)
    return json.loads((out / ".vite" / "manifest.json").read_text())


def first_load(manifest: dict) -> list[str]:
    """The entry chunk and every chunk it imports statically, transitively."""
    entry = next(key for key, chunk in manifest.items() if chunk.get("isEntry"))
    seen, stack = [], [entry]
    while stack:
        key = stack.pop()
        if key not in seen:
            seen.append(key)
            stack.extend(manifest[key].get("imports", []))
    return seen


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        manifest = build(out)
        keys = first_load(manifest)
        files = {manifest[key]["file"] for key in keys}
        css = {c for key in keys for c in manifest[key].get("css", [])}
        rows = sorted(((gzipped(out / f), f) for f in files), reverse=True)
        print("first-load JavaScript, gzipped:")
        for size, name in rows[:12]:
            print(f"  {size / 1024:8.1f} kB  {name}")
        if len(rows) > 12:
            print(f"  {sum(s for s, _ in rows[12:]) / 1024:8.1f} kB  {len(rows) - 12} more chunks")
        later = {chunk["file"] for key, chunk in manifest.items() if key not in keys and chunk["file"].endswith(".js")}
        locales = {match.group(1): f for f in later if (match := LOCALE_CHUNK.search(f))}
        lazy = later - set(locales.values())
        print("UI text, one chunk per language, gzipped:")
        for language, name in sorted(locales.items()):
            print(f"  {gzipped(out / name) / 1024:8.1f} kB  {language}")
        lazy_total = sum(gzipped(out / f) for f in lazy)
        css_total = sum(gzipped(out / f) for f in css)
        js_total = sum(s for s, _ in rows)
        print(f"largest first-load chunk, gzipped: {rows[0][0] / 1024:.1f} kB ({rows[0][1]})")
        print(f"lazy chunks (routes loaded on demand): {len(lazy)}, {lazy_total / 1024:.1f} kB gzipped in all")
        print(f"first-load CSS, gzipped: {css_total / 1024:.1f} kB")
        if FIRST_LANGUAGE in locales:
            print(f"first-load JavaScript without UI text, gzipped: {js_total / 1024:.1f} kB in {len(rows)} chunks")
            js_total += gzipped(out / locales[FIRST_LANGUAGE])
            print(f"first-load JavaScript with the {FIRST_LANGUAGE} text, gzipped: {js_total / 1024:.1f} kB "
                  f"in {len(rows) + 1} chunks")
        else:  # the catalogues are bundled with the code
            print(f"first-load JavaScript, gzipped: {js_total / 1024:.1f} kB in {len(rows)} chunks")


if __name__ == "__main__":
    main()
