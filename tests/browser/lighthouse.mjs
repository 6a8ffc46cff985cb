// Lighthouse audit of Balcão's public pages against a server that is already running.
//
//   node lighthouse.mjs http://127.0.0.1:8181      (or BALCAO_URL=http://127.0.0.1:8181 node lighthouse.mjs)
//
// It starts no server: the caller decides which build and which configuration is measured. Each page
// is audited LIGHTHOUSE_RUNS times (3 unless told), each run in a fresh Chromium, with Lighthouse's
// default mobile settings (simulated throttling of a mid-range phone on slow 4G). The median per
// category is what counts, because a single simulated run still varies by a few points.
// Exits 1 when any median is below LIGHTHOUSE_MIN (95 unless told), 2 on a usage or audit error.

import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const PATHS = ["/", "/pix-seguro", "/criar-placa-pix"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
// The metrics behind the performance score, kept in the summary so a drop can be traced.
const METRICS = [
  "first-contentful-paint",
  "largest-contentful-paint",
  "total-blocking-time",
  "cumulative-layout-shift",
  "speed-index",
];

const here = dirname(fileURLToPath(import.meta.url));
const resultsDir = join(here, "lighthouse-results");

function usage(message) {
  console.error(`${message}\nusage: node lighthouse.mjs <base URL>   (or set BALCAO_URL)`);
  process.exit(2);
}

function positiveInteger(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) usage(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// "/" -> "inicio", "/pix-seguro" -> "pix-seguro": file names for the results.
function slug(path) {
  const name = path.replace(/^\/+|\/+$/g, "").replace(/[^a-z0-9-]+/gi, "_");
  return name === "" ? "inicio" : name;
}

// Audits in a scored category that did not get full marks, so a report says what to fix.
function shortfalls(lhr) {
  const found = [];
  for (const id of CATEGORIES) {
    for (const ref of lhr.categories[id].auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
        found.push({ category: id, audit: ref.id, score: audit.score, weight: ref.weight, title: audit.title, displayValue: audit.displayValue });
      }
    }
  }
  return found;
}

async function auditOnce(url) {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH || "/usr/bin/chromium",
    chromeFlags: CHROME_FLAGS,
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: CATEGORIES,
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    for (const warning of lhr.runWarnings) console.error(`  aviso (${url}): ${warning}`);
    return lhr;
  } finally {
    await chrome.kill();
  }
}

async function main() {
  const base = (process.argv[2] || process.env.BALCAO_URL || "").replace(/\/+$/, "");
  if (!base) usage("no base URL given");
  try {
    new URL(base);
  } catch {
    usage(`not a URL: ${base}`);
  }
  const runs = positiveInteger("LIGHTHOUSE_RUNS", 3);
  const minimum = positiveInteger("LIGHTHOUSE_MIN", 95);
  await mkdir(resultsDir, { recursive: true });

  const pages = [];
  for (const path of PATHS) {
    const url = base + path;
    const perRun = [];
    for (let run = 1; run <= runs; run += 1) {
      process.stderr.write(`${url} run ${run}/${runs}\n`);
      const lhr = await auditOnce(url);
      await writeFile(join(resultsDir, `${slug(path)}.run${run}.lhr.json`), JSON.stringify(lhr));
      perRun.push({
        scores: Object.fromEntries(CATEGORIES.map((id) => [id, Math.round(lhr.categories[id].score * 100)])),
        metrics: Object.fromEntries(METRICS.map((id) => [id, lhr.audits[id].numericValue])),
        shortfalls: shortfalls(lhr),
        lighthouseVersion: lhr.lighthouseVersion,
        userAgent: lhr.environment.hostUserAgent,
        benchmarkIndex: lhr.environment.benchmarkIndex,
      });
    }
    const medians = Object.fromEntries(CATEGORIES.map((id) => [id, median(perRun.map((r) => r.scores[id]))]));
    const medianMetrics = Object.fromEntries(METRICS.map((id) => [id, median(perRun.map((r) => r.metrics[id]))]));
    const summary = { url, path, runs: perRun, medians, medianMetrics };
    await writeFile(join(resultsDir, `${slug(path)}.json`), JSON.stringify(summary, null, 2) + "\n");
    pages.push(summary);
  }

  const first = pages[0].runs[0];
  const overview = {
    base,
    date: new Date().toISOString(),
    lighthouseVersion: first.lighthouseVersion,
    userAgent: first.userAgent,
    chromePath: process.env.CHROME_PATH || "/usr/bin/chromium",
    chromeFlags: CHROME_FLAGS,
    formFactor: "mobile (Lighthouse default, simulated throttling)",
    runsPerPage: runs,
    minimum,
    pages: pages.map(({ path, medians, medianMetrics }) => ({ path, medians, medianMetrics })),
  };
  await writeFile(join(resultsDir, "summary.json"), JSON.stringify(overview, null, 2) + "\n");

  const header = ["page", "performance", "accessibility", "best practices", "seo"];
  const rows = pages.map(({ path, medians }) => [path, ...CATEGORIES.map((id) => String(medians[id]))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  console.log(`Lighthouse ${overview.lighthouseVersion}, ${overview.userAgent}`);
  console.log(`median of ${runs} run(s) per page, mobile, base ${base}`);
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of rows) console.log(line(row));

  const failures = pages.flatMap(({ path, medians, runs: perRun }) =>
    CATEGORIES.filter((id) => medians[id] < minimum).map((id) => {
      const why = [...new Set(perRun.flatMap((r) => r.shortfalls.filter((s) => s.category === id).map((s) => s.audit)))];
      return `${path} ${id} ${medians[id]} < ${minimum} (audits short of full marks: ${why.join(", ") || "none"})`;
    }),
  );
  if (failures.length > 0) {
    console.error(`\nbelow ${minimum}:\n  ${failures.join("\n  ")}`);
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
