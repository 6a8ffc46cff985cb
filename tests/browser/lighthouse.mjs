// Lighthouse audit of Balcão against a server that is already running: three public pages, the payer
// page of a code made for the audit, and two dashboard screens signed in.
//
//   node lighthouse.mjs http://localhost:8181      (or BALCAO_URL=http://localhost:8181 node lighthouse.mjs)
//
// It starts no server: the caller decides which build and which configuration is measured. Each page
// is audited LIGHTHOUSE_RUNS times (3 unless told), each run in a fresh Chromium, with Lighthouse's
// default mobile settings (simulated throttling of a mid-range phone on slow 4G). The median per
// category is what counts, because a single simulated run still varies by a few points.
//
// The signed-in screens are audited in one Chromium that signed up first (through the API, from a page of
// the site, so the refresh cookie is the browser's own), with Lighthouse told to keep its storage: each
// audit loads the screen as a returning owner does, the app refreshing its session from the cookie. The
// payer page belongs to a code that account made through the API.
// Exits 1 when any median is below LIGHTHOUSE_MIN (95 unless told), 2 on a usage or audit error.

import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";

const PATHS = ["/", "/pix-seguro", "/criar-placa-pix"];
// Dashboard screens, audited signed in.
const SIGNED_IN_PATHS = ["/painel", "/painel/qrcodes"];
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

async function launchChrome() {
  return chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH || "/usr/bin/chromium",
    chromeFlags: CHROME_FLAGS,
  });
}

// One audit; in a fresh Chromium unless `chrome` (signed in) is given, whose storage is then kept.
async function auditOnce(url, chrome = null) {
  const own = chrome === null ? await launchChrome() : null;
  const port = (chrome ?? own).port;
  try {
    const result = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: CATEGORIES,
      disableStorageReset: chrome !== null,
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (lhr.finalDisplayedUrl && new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
      throw new Error(`${url} ended at ${lhr.finalDisplayedUrl}: not the screen asked for (signed out?)`);
    }
    for (const warning of lhr.runWarnings) console.error(`  aviso (${url}): ${warning}`);
    return lhr;
  } finally {
    if (own !== null) await own.kill();
  }
}

// Signs an owner up in `chrome` (from a page of the site, so the refresh cookie lands in its jar) and
// makes one QR code through the API; answers the code's id.
async function signUpAndMakeACode(chrome, base) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  try {
    const context = browser.contexts()[0];
    const page = await context.newPage();
    await page.goto(`${base}/entrar`);
    const id = await page.evaluate(async () => {
      const email = `lighthouse-${Date.now()}@padaria.test`;
      const signedUp = await fetch("/api/auth/signup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "senha-boa-123", displayName: "Padaria Lighthouse" }),
      });
      if (!signedUp.ok) throw new Error(`sign-up: ${signedUp.status} ${await signedUp.text()}`);
      const { accessToken, user } = await signedUp.json();
      const made = await fetch(`/api/accounts/${user.uid}/qrcodes`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${accessToken}` },
        body: JSON.stringify({
          pixKey: "loja@padaria.test",
          merchantName: "Padaria Lighthouse",
          merchantCity: "Recife",
          amount: "12,50",
          description: "Pão de queijo",
        }),
      });
      if (made.status !== 201) throw new Error(`QR code: ${made.status} ${await made.text()}`);
      return (await made.json()).id;
    });
    await page.close();
    return id;
  } finally {
    // Leaves Chromium running: only the CDP connection of playwright goes.
    await browser.close();
  }
}

async function auditPage(base, path, runs, chrome = null) {
  const url = base + path;
  const perRun = [];
  for (let run = 1; run <= runs; run += 1) {
    process.stderr.write(`${url} run ${run}/${runs}\n`);
    const lhr = await auditOnce(url, chrome);
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
  return summary;
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
  const signedIn = await launchChrome();
  try {
    const code = await signUpAndMakeACode(signedIn, base);
    for (const path of [...PATHS, `/pagamento/${code}`]) pages.push(await auditPage(base, path, runs));
    for (const path of SIGNED_IN_PATHS) pages.push(await auditPage(base, path, runs, signedIn));
  } finally {
    await signedIn.kill();
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
