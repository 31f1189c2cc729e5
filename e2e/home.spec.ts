/**
 * The home page (issue 27, items 6 and 9): its curl example calls this deployment's own URL (APP_URL,
 * or localhost at PORT) rather than a hard-coded :3000, and a merchant finds sign-in and sign-up.
 */
import { expect, test } from "./support/fixtures";

for (const vp of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "mobile", width: 390, height: 844 },
]) {
  test(`${vp.name}: the home page shows the real API URL and links to sign-in`, async ({ page, state, shot }) => {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    await page.goto("/");
    await expect(page.getByText(`${state.baseUrl}/v2/currencies`)).toBeVisible();
    await expect(page.getByText("localhost:3000")).toHaveCount(0);
    const signIn = page.getByRole("link", { name: "Sign in to the dashboard" });
    await expect(signIn).toHaveAttribute("href", "/sign-in");
    await expect(page.getByRole("link", { name: "Create an account" })).toHaveAttribute("href", "/register");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(`home-links-${vp.name}`);
    await signIn.click();
    await expect(page).toHaveURL(/\/sign-in$/);
  });
}
