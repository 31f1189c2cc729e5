/**
 * axe-core on a page that has settled. A client component's `router.refresh()` (the destination
 * panels, after "Sign and save") re-renders the route's server tree, metadata included: for a few
 * frames the document can have no <title>, and axe run in that gap reports `document-title` on a
 * page that has one. Wait for the title to be back before analyzing.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export async function settledAxe(page: Page, tags: string[]) {
  await expect.poll(() => page.title(), { message: "the page has a <title> before axe runs" }).not.toBe("");
  return new AxeBuilder({ page }).withTags(tags).analyze();
}
