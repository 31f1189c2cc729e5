/**
 * The /admin warning about an out-of-date screening list: its age from SOURCE.md's date (else the
 * newest list file), against SCREENING_LIST_MAX_AGE_HOURS (24 by default), on an injected clock.
 */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { serviceHealth } from "@/lib/admin/health";
import { setClock } from "@/lib/clock";
import { reloadEnv } from "@/lib/env";
import { screeningListAge, screeningListInfo } from "@/lib/kyt/sanctions-list";

const HOUR = 3_600_000;
const EXTRACTED = Date.parse("2024-09-27T00:00:00Z");
const dirs: string[] = [];

function setEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  reloadEnv();
}

afterEach(() => {
  setEnv({ KYT_SANCTIONS_DIR: undefined, SCREENING_LIST_MAX_AGE_HOURS: undefined });
  setClock(null);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("screening list age", () => {
  it("dates the bundled list from its SOURCE.md and warns once it is older than 24 hours (the default)", () => {
    const info = screeningListInfo();
    expect(info).toMatchObject({ listDate: "2024-09-27", listTime: EXTRACTED });
    expect(screeningListAge(info, EXTRACTED + 24 * HOUR)).toEqual({ ageHours: 24, maxAgeHours: 24, stale: false });
    expect(screeningListAge(info, EXTRACTED + 24 * HOUR + 1)).toEqual({ ageHours: 24, maxAgeHours: 24, stale: true });
    // The domain clock is the default.
    setClock(() => EXTRACTED + 2 * HOUR);
    expect(screeningListAge(info)).toEqual({ ageHours: 2, maxAgeHours: 24, stale: false });
  });

  it("follows SCREENING_LIST_MAX_AGE_HOURS, and /admin's health carries the verdict", async () => {
    setEnv({ SCREENING_LIST_MAX_AGE_HOURS: "720" });
    setClock(() => EXTRACTED + 700 * HOUR);
    expect((await serviceHealth()).screening.age).toEqual({ ageHours: 700, maxAgeHours: 720, stale: false });
    setClock(() => EXTRACTED + 721 * HOUR);
    expect((await serviceHealth()).screening.age).toEqual({ ageHours: 721, maxAgeHours: 720, stale: true });
  });

  it("without a SOURCE.md date, dates a list folder by its newest file; with no list at all, the age is unknown (stale)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sdn-"));
    dirs.push(dir);
    const file = path.join(dir, "sanctioned_addresses_ETH.txt");
    writeFileSync(file, "0x8589427373D6D84E98730D7795D8f6f8731FDA16\n");
    const mtime = Date.parse("2026-11-01T12:00:00Z");
    utimesSync(file, mtime / 1000, mtime / 1000);
    setEnv({ KYT_SANCTIONS_DIR: dir });
    const info = screeningListInfo();
    expect(info).toMatchObject({ sanctioned: 1, listDate: null, listTime: mtime });
    expect(screeningListAge(info, mtime + 3 * HOUR)).toMatchObject({ ageHours: 3, stale: false });
    rmSync(file);
    setEnv({ KYT_SANCTIONS_DIR: path.join(dir, "missing") });
    expect(screeningListAge(screeningListInfo(), mtime)).toEqual({ ageHours: null, maxAgeHours: 24, stale: true });
  });

  it("refuses a max age that is not a whole number of hours from 1 up", () => {
    for (const bad of ["0", "-3", "1.5", "soon"]) {
      setEnv({ SCREENING_LIST_MAX_AGE_HOURS: bad });
      expect(() => screeningListAge({ listTime: EXTRACTED }, EXTRACTED), bad).toThrow(/SCREENING_LIST_MAX_AGE_HOURS/);
    }
  });
});
