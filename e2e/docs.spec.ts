/**
 * The public pages a newcomer sees first (issue 13): home, the API reference, and the styled
 * 404 (an unknown URL and /dashboard, not built yet), at desktop and phone widths. No page
 * scrolls sideways, descriptions are rendered Markdown (no literal backticks), the reference
 * shows Duebill's own version and an example request and response for every operation.
 */
import path from "node:path";
import type { Page } from "@playwright/test";
import pkg from "../package.json";
import { expect, test } from "./support/fixtures";

const WIDTHS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `page is ${scrollWidth - clientWidth}px wider than the viewport`).toBeLessThanOrEqual(clientWidth);
}

/** The icons come from public/: the SVG mark first, then an .ico (and /favicon.ico answers for browsers that ask unprompted). */
async function expectFavicon(page: Page) {
  const hrefs = await page.locator('link[rel="icon"]').evaluateAll((links) => links.map((l) => l.getAttribute("href")));
  expect(hrefs).toEqual(["/logo.svg", "/favicon.ico"]);
  const svg = await page.request.get("/logo.svg");
  expect(svg.status()).toBe(200);
  expect(svg.headers()["content-type"]).toContain("image/svg+xml");
  const ico = await page.request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  const apple = await page.locator('link[rel="apple-touch-icon"]').getAttribute("href");
  expect((await page.request.get(apple!)).headers()["content-type"]).toContain("image/png");
}

for (const vp of WIDTHS) {
  test.describe(`at ${vp.width} px`, () => {
    test.use({ viewport: { width: vp.width, height: vp.height } });

    test("home says what Duebill is and how to start", async ({ page, shot }) => {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByText("drop-in compatible with the Request Network API 0.13.0", { exact: false })).toBeVisible();
      await expect(page.getByText("npm run dev", { exact: false }).first()).toBeVisible();
      await expect(page.locator('main a[href="/docs"]').first()).toBeVisible();
      await expect(page.locator('main a[href="/v2/openapi.json"]').first()).toBeVisible();
      await expectFavicon(page);
      await expectNoHorizontalOverflow(page);
      await shot(`home-${vp.name}`);
    });

    test("the API reference renders every operation with examples", async ({ page, shot }) => {
      const doc = (await (await page.request.get("/v2/openapi.json")).json()) as {
        paths: Record<string, Record<string, { operationId: string; requestBody?: unknown; security: Record<string, unknown>[] }>>;
      };
      // Every operation; the `options` entries (Allow and the CORS preflight of each path) are
      // documented in the OpenAPI document and docs/api/auth.md, not as cards of their own.
      const operations = Object.values(doc.paths).flatMap((methods) =>
        Object.entries(methods)
          .filter(([method]) => method !== "options")
          .map(([, op]) => op),
      );
      await page.goto("/docs");
      await expect(page.getByTestId("docs-version")).toHaveText(`Duebill ${pkg.version}`);
      await expect(page.getByText("Compatible with the Request Network API 0.13.0", { exact: false })).toBeVisible();
      await expect(page.locator("[data-operation]")).toHaveCount(operations.length);

      const markdown = await page.locator("[data-markdown]").allTextContents();
      expect(markdown.length).toBeGreaterThan(10);
      expect(markdown.filter((t) => t.includes("`") || t.includes("**"))).toEqual([]);
      await expect(page.locator("[data-markdown] code").first()).toBeAttached();
      // Nor anywhere else outside the code panels (labels, tables, the sidebar).
      const prose = await page.evaluate(() => {
        const main = document.querySelector("main")!.cloneNode(true) as HTMLElement;
        for (const pre of main.querySelectorAll("pre")) pre.remove();
        return main.textContent ?? "";
      });
      expect([...prose.matchAll(/.{0,40}`.{0,40}/g)].map((m) => m[0])).toEqual([]);

      for (const op of operations) {
        const card = page.locator(`[data-operation="${op.operationId}"]`);
        const request = (await card.locator('[data-example="request"] pre').textContent()) ?? "";
        const response = (await card.locator('[data-example="response"] pre').textContent()) ?? "";
        expect(request, op.operationId).toContain("curl");
        if (Object.keys(op.security[0] ?? {})[0] === "ApiKey") expect(request, op.operationId).toContain("x-api-key: <your API key>");
        if (op.requestBody) {
          await expect(card).toHaveAttribute("data-has-body", "true");
          const body = request.slice(request.indexOf("-d '") + 4, request.lastIndexOf("'"));
          expect(() => JSON.parse(body.replaceAll(`'\\''`, "'")), `${op.operationId} request body`).not.toThrow();
        }
        expect(response.trim().length, `${op.operationId} response`).toBeGreaterThan(0);
      }

      await expectFavicon(page);
      await expectNoHorizontalOverflow(page);
      await shot(`docs-${vp.name}`);
      // The first operation up close, as a reader lands on it.
      await page.locator('[data-operation="createRequest"]').scrollIntoViewIfNeeded();
      await page
        .locator('[data-operation="createRequest"]')
        .screenshot({ path: path.join(__dirname, "screenshots", `docs-${vp.name}-create-request.png`) });
    });

    test("the API reference: search finds an operation by name, the index links every section, code blocks take the keyboard", async ({
      page,
    }) => {
      await page.goto("/docs");
      const shots = path.join(__dirname, "screenshots");
      await page.screenshot({ path: path.join(shots, `docs-${vp.name}-top.png`) });
      const search = page.getByRole("searchbox", { name: "Search endpoints" });
      const index = page.getByTestId("docs-index");
      // The index: the overview sections and one link per operation (folded behind a button on phones).
      if (vp.width < 1024) await page.getByRole("button", { name: "Show the index" }).click();
      await expect(index.getByRole("link", { name: "Authentication" })).toHaveAttribute("href", "#authentication");
      const entries = await index.locator("[data-index-entry]").count();
      await expect(page.locator("[data-operation]")).toHaveCount(entries);
      for (const id of await index.locator("[data-index-entry]").evaluateAll((as) => as.map((a) => a.getAttribute("data-index-entry")))) {
        await expect(page.locator(`[id="${id}"]`)).toHaveCount(1);
      }

      // By its name, from the keyboard: type, Enter goes to the first match.
      await search.focus();
      await page.keyboard.type("create a payment request");
      await expect(page.getByTestId("docs-search-status")).toContainText(`1 of ${entries} endpoints match`);
      await expect(index.locator("[data-index-entry]")).toHaveCount(1);
      await expect(index.locator('[data-index-entry="createRequest"]')).toBeVisible();
      await page.screenshot({ path: path.join(shots, `docs-${vp.name}-search.png`) });
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/#createRequest$/);
      await expect(page.locator('[data-operation="createRequest"] h3')).toBeInViewport();
      // By its operation ID and by its path; nothing matches nonsense, and says so.
      await search.fill("searchPayments");
      await expect(index.locator("[data-index-entry]")).toHaveCount(1);
      await search.fill("/v1/webhook");
      expect(await index.locator("[data-index-entry]").count()).toBeGreaterThan(3);
      await search.fill("no such endpoint zzz");
      await expect(index.getByText("No endpoint matches")).toBeVisible();
      await search.fill("");

      // A code block scrolls inside its box and a keyboard reaches it (it is a named, focusable region).
      const block = page.getByRole("region", { name: "Example request: Create a payment request" });
      await block.focus();
      await expect(block).toBeFocused();
      expect(await block.getAttribute("tabindex")).toBe("0");
      await block.scrollIntoViewIfNeeded();
      await page
        .locator('[data-operation="createRequest"] [data-example="request"]')
        .screenshot({ path: path.join(shots, `docs-${vp.name}-code.png`) });
      // An example that needs values from earlier steps names each placeholder and where it comes from.
      const notes = page.locator('[data-operation="activateRecurringPayout"] [data-placeholders]');
      await expect(notes).toContainText("Before you run it, replace");
      await expect(notes).toContainText("<permitSignature>");
      await notes.scrollIntoViewIfNeeded();
      await page
        .locator('[data-operation="activateRecurringPayout"]')
        .screenshot({ path: path.join(shots, `docs-${vp.name}-placeholders.png`) });
      await expectNoHorizontalOverflow(page);
    });

    for (const path of ["/no-such-page"]) {
      test(`${path} answers the styled 404`, async ({ page, shot }) => {
        const res = await page.goto(path);
        expect(res?.status()).toBe(404);
        await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
        await expect(page.locator('main a[href="/"]')).toBeVisible();
        await expect(page.locator('main a[href="/docs"]')).toBeVisible();
        await expectFavicon(page);
        await expectNoHorizontalOverflow(page);
        await shot(`not-found-unknown-${vp.name}`);
      });
    }
  });
}
