/** The dashboard and admin bars mark the section a page belongs to, nested pages included. */
import { describe, expect, it } from "vitest";
import { currentSection, type NavItem } from "@/components/dashboard/nav-links";

const DASHBOARD: NavItem[] = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/payments", label: "Payments", also: ["/dashboard/requests"] },
  { href: "/dashboard/links", label: "Payment links" },
  { href: "/dashboard/settings", label: "Settings" },
];

describe("currentSection", () => {
  it("marks the section of a page, of its sub-pages, and of the paths it also owns", () => {
    expect(currentSection(DASHBOARD, "/dashboard")).toBe("/dashboard");
    expect(currentSection(DASHBOARD, "/dashboard/payments")).toBe("/dashboard/payments");
    // A request's page is under Payments, not Overview (the longest matching prefix wins).
    expect(currentSection(DASHBOARD, "/dashboard/requests/01abc")).toBe("/dashboard/payments");
    expect(currentSection(DASHBOARD, "/dashboard/links/new")).toBe("/dashboard/links");
    // A prefix only counts at a "/": /dashboard/linksfoo is not Payment links.
    expect(currentSection(DASHBOARD, "/dashboard/linksfoo")).toBe("/dashboard");
    expect(currentSection(DASHBOARD, "/admin")).toBeUndefined();
    const ADMIN: NavItem[] = [
      { href: "/admin", label: "Health" },
      { href: "/admin/accounts", label: "Accounts" },
    ];
    expect(currentSection(ADMIN, "/admin/accounts/acc_1")).toBe("/admin/accounts");
  });
});
