import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChallenge } from "@/lib/auth/sign-in/wallet";
import { appUrlOf, env, exportNextAuthUrl, reloadEnv } from "@/lib/env";
import { linkUrl } from "@/lib/secure-payments/create-secure-payment";
import { resetDb } from "../helpers/db";

/** Changing only PORT moves the app's URL with it (issue 27, item 6); a set APP_URL always wins. */
describe("the app URL follows PORT unless APP_URL is set", () => {
  const saved = { APP_URL: process.env.APP_URL, PORT: process.env.PORT, NEXTAUTH_URL: process.env.NEXTAUTH_URL };
  const restore = (name: keyof typeof saved) => {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  };
  beforeEach(resetDb);
  afterEach(() => {
    restore("APP_URL");
    restore("PORT");
    restore("NEXTAUTH_URL");
    reloadEnv();
  });

  it("appUrlOf: APP_URL, else http://localhost:<PORT>, else port 3000", () => {
    expect(appUrlOf({ PORT: "3100" })).toBe("http://localhost:3100");
    expect(appUrlOf({})).toBe("http://localhost:3000");
    expect(appUrlOf({ PORT: "3100", APP_URL: "https://pay.example.com" })).toBe("https://pay.example.com");
    // A malformed PORT is the boot check's to report (environmentProblems names PORT), not a malformed URL.
    expect(appUrlOf({ PORT: "http" })).toBe("http://localhost:3000");
  });

  it("PORT only: payment links, the sign-in message's domain and next-auth's URL use that port", async () => {
    delete process.env.APP_URL;
    process.env.PORT = "3999";
    reloadEnv();
    expect(env().APP_URL).toBe("http://localhost:3999");
    expect(linkUrl("tok_abc")).toBe("http://localhost:3999/pay/tok_abc");
    const { message } = await createChallenge("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(message.split("\n")[0]).toBe("localhost:3999 wants you to sign in with your Ethereum account:");
    expect(message).toContain("URI: http://localhost:3999");
    exportNextAuthUrl();
    expect(process.env.NEXTAUTH_URL).toBe("http://localhost:3999");
  });

  it("APP_URL set: it wins over PORT", async () => {
    process.env.APP_URL = "https://pay.example.com";
    process.env.PORT = "3999";
    reloadEnv();
    expect(linkUrl("tok_abc")).toBe("https://pay.example.com/pay/tok_abc");
    const { message } = await createChallenge("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(message.split("\n")[0]).toBe("pay.example.com wants you to sign in with your Ethereum account:");
  });
});
