// What a phone owner sees wrong first: a page wider than the screen, an element sticking out of
// it, or text cut by its box. `layoutProblems(page)` lists each, naming the element, so a check can
// fail with the reason instead of a screenshot to squint at.

/** The screens every page is looked at on: a small phone, a common phone, a laptop. */
export const VIEWPORTS = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
];

/**
 * Every layout problem on the page as it is now, as sentences. Elements inside a container that
 * scrolls sideways on purpose (`overflow-x: auto | scroll`, e.g. a wide table's wrapper) are that
 * container's business and not counted; screen-reader-only text (clipped to 1 px) is not text a
 * person sees, so it is not "cut" either.
 */
export async function layoutProblems(page) {
  return page.evaluate(() => {
    const problems = [];
    const viewport = document.documentElement.clientWidth;
    const name = (element) => {
      const id = element.id ? `#${element.id}` : "";
      const classes =
        typeof element.className === "string" && element.className.trim() !== ""
          ? `.${element.className.trim().split(/\s+/).slice(0, 2).join(".")}`
          : "";
      const text = (element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `<${element.tagName.toLowerCase()}${id}${classes}>${text ? ` “${text}”` : ""}`;
    };
    const scrollsSideways = (element) => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        const overflowX = getComputedStyle(up).overflowX;
        if (overflowX === "auto" || overflowX === "scroll") return true;
      }
      return false;
    };
    const isScreenReaderOnly = (element, box) => {
      const style = getComputedStyle(element);
      return (
        (box.width <= 1 && box.height <= 1) ||
        style.clip === "rect(0px, 0px, 0px, 0px)" ||
        style.clipPath === "inset(50%)"
      );
    };

    const pageWidth = document.documentElement.scrollWidth;
    if (pageWidth > viewport) {
      problems.push(`the page is ${pageWidth} px wide on a ${viewport} px screen`);
    }
    // Only the outermost element sticking out is named: its rows and cells stick out with it.
    const reported = [];
    const insideReported = (element) => reported.some((outer) => outer.contains(element));
    for (const element of document.body.querySelectorAll("*")) {
      const style = getComputedStyle(element);
      if (style.display === "none" || style.visibility === "hidden") continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (isScreenReaderOnly(element, box) || scrollsSideways(element)) continue;
      if (insideReported(element)) continue;
      // Wholly off to the left is hidden on purpose (a skip link waiting for focus).
      const hiddenOffScreen = box.right <= 0;
      if (!hiddenOffScreen && (box.right > viewport + 1 || box.left < -1)) {
        reported.push(element);
        problems.push(
          `${name(element)} spans ${Math.round(box.left)}–${Math.round(box.right)} px on a ${viewport} px screen`,
        );
        continue;
      }
      const clips = ["hidden", "clip"].includes(style.overflowX);
      const isField = element instanceof HTMLInputElement && element.type !== "hidden";
      if ((clips || isField) && element.scrollWidth > element.clientWidth + 1) {
        // A field whose typed value is longer than the field scrolls, as fields do; only a
        // placeholder or label cut short is a problem.
        if (isField && element.value !== "") continue;
        reported.push(element);
        problems.push(
          `${name(element)} cuts its content: ${element.scrollWidth} px in ${element.clientWidth} px`,
        );
      }
    }
    return problems;
  });
}

/**
 * Opens `path` at each of the `VIEWPORTS` and fails listing every problem found, per screen.
 * `prepare(page)` runs after each load (e.g. to open a step of a form) when given.
 */
export async function expectFitsEveryScreen(page, path, prepare) {
  const found = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.goto(path, { waitUntil: "load" });
    if (prepare) await prepare(page);
    for (const problem of await layoutProblems(page)) {
      found.push(`${path} at ${viewport.width}×${viewport.height}: ${problem}`);
    }
  }
  if (found.length > 0) {
    throw new Error(`layout problems:\n  ${found.join("\n  ")}`);
  }
}

/**
 * The words inside `selector` that the browser broke across lines ("Simulaçã/o"): each word's
 * text range must sit on one line. Spaces may wrap; a word may not.
 */
export function brokenWords(page, selector) {
  return page.locator(selector).evaluateAll((elements) => {
    const broken = [];
    for (const element of elements) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        for (const match of node.textContent.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}
