/**
 * The HTML report in a real browser: Debian's Chromium (installed by the set-up when missing), driven by
 * puppeteer-core, opens the file from disk with every request that is not the file itself aborted and recorded.
 * The charts render (a canvas with drawn pixels and the expected number of series each), the console stays free
 * of errors, a screenshot is written to test-artifacts/, and a page that reaches for the network is caught.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, type TestContext, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import puppeteer, { type Browser } from "puppeteer-core";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { reportHtml, silentLogger, ToolDistill } from "../core/index.ts";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import { bookingRun, input, TOOL, travelWorld } from "./fakes/travel-world.ts";
import { tempDir } from "./helpers.ts";
import { CHROMIUM_FLAGS, ensureChromium } from "./support/chromium.ts";

const ARTIFACTS = fileURLToPath(new URL("../test-artifacts/", import.meta.url));
const sandbox = new Sandbox({ poolSize: 2 });
let browser: Browser;
let profile = "";

before(async () => {
  const executablePath = ensureChromium();
  profile = mkdtempSync(join(tmpdir(), "td-chromium-"));
  browser = await puppeteer.launch({
    executablePath,
    headless: true,
    args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`],
  });
});
after(async () => {
  await browser?.close();
  await sandbox.close();
  // The profile goes only once Chromium has exited: removed first, a late write of the browser fails the rm.
  if (profile) rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
});

/** The part of the page's DOM the chart check reads. */
interface PageDocument {
  getElementById(id: string): {
    dataset: Record<string, string | undefined>;
    querySelector(s: string): {
      width: number;
      height: number;
      getContext(kind: "2d"): {
        getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
      };
    } | null;
    querySelectorAll(s: string): { length: number };
  } | null;
}

/** What a page did: requests that left the file (aborted), console errors, uncaught exceptions. */
interface Visit {
  network: string[];
  errors: string[];
  page: import("puppeteer-core").Page;
}

/** Opens `file` with the network blocked: only the file itself (and data: URLs) may load. */
async function visit(file: string): Promise<Visit> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 900 });
  const v: Visit = { network: [], errors: [], page };
  await page.setRequestInterception(true);
  page.on("request", (req) => {
    const url = req.url();
    if (url.startsWith("file://") || url.startsWith("data:")) return void req.continue();
    v.network.push(url);
    void req.abort();
  });
  page.on("console", (m) => {
    if (m.type() === "error") v.errors.push(m.text());
  });
  page.on("pageerror", (e) => v.errors.push(String(e)));
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  return v;
}

/** A report over a real store: a source run, the tool proposed and promoted, two runs that use it. */
async function reportFile(t: TestContext): Promise<string> {
  const world = travelWorld();
  const td = await ToolDistill.open({
    store: join(tempDir(t), "store"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    minCallsToDistill: 3,
    fallbackDistiller: false,
    logger: silentLogger,
  });
  t.after(() => td.close());
  const source = await bookingRun(td);
  source.recordUsage({ input_tokens: 8200, output_tokens: 900, cache_read_input_tokens: 4000 });
  await source.execute(PROPOSE_TOOL_NAME, { code: TOOL, test_inputs: [input()] });
  await source.finish();
  await td.promote("book_cheapest_flight");
  for (const [from, to, who] of [
    ["LAX", "BOS", "Ari Cole"],
    ["SEA", "ORD", "Kim Li"],
  ] as const) {
    const run = td.startTrace(`Book the cheapest flight from ${from} to ${to} for ${who}`);
    await run.execute("book_cheapest_flight", input(from, to, who));
    run.recordUsage({ input_tokens: 1500, output_tokens: 200 });
    run.setOutcome({ success: true });
    await run.finish();
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, "report.html");
  writeFileSync(file, reportHtml(await td.report()));
  return file;
}

test("the report renders its charts offline in Chromium, without console errors or network requests", async (t) => {
  const file = await reportFile(t);
  const v = await visit(file);
  await v.page.waitForSelector("body[data-rendered=true]");
  const charts = await v.page.evaluate(() =>
    ["chart-runs", "chart-tools", "chart-savings"].map((id) => {
      // Runs in the page; the project compiles without the DOM's types, so the little it uses is spelled out.
      const doc = (globalThis as unknown as { document: PageDocument }).document;
      const el = doc.getElementById(id)!;
      const canvas = el.querySelector("canvas");
      let drawn = 0;
      if (canvas && canvas.width > 0) {
        const px = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) drawn += 1;
      }
      return {
        id,
        series: Number(el.dataset["series"]),
        legend: el.querySelectorAll(".u-legend .u-series").length - 1,
        drawn,
      };
    }),
  );
  // Each run: base calls and tokens; one cumulative line per tool; the savings bars (calls and tokens).
  assert.deepEqual(
    charts.map((c) => [c.id, c.series, c.legend]),
    [
      ["chart-runs", 2, 2],
      ["chart-tools", 1, 1],
      ["chart-savings", 2, 2],
    ],
  );
  for (const c of charts) assert.ok(c.drawn > 500, `${c.id} has drawn pixels (${c.drawn})`);
  assert.match(await v.page.$eval("body", (b) => b.textContent ?? ""), /book_cheapest_flight/);
  assert.deepEqual(v.errors, [], "no console errors");
  assert.deepEqual(v.network, [], "the page requested nothing over the network");
  await v.page.screenshot({ path: join(ARTIFACTS, "report.png"), fullPage: true });
  await v.page.close();
});

test("a page that reaches for the network is caught: the guard the report test relies on", async (t) => {
  const dir = tempDir(t, "td-page-");
  const file = join(dir, "leaky.html");
  writeFileSync(
    file,
    '<!doctype html><link rel="icon" href="data:,"><img src="https://cdn.example.com/chart.js">',
  );
  const v = await visit(file);
  await v.page.close();
  assert.deepEqual(v.network, ["https://cdn.example.com/chart.js"]);
});
