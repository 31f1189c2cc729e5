/**
 * The browser-only stand-ins of components/wallet/bundle-shims/ (next.config.ts resolveAlias)
 * against the libraries they replace: same names, same results where our pages use them.
 */
import { createConfig, getClient, http } from "@wagmi/core";
import { UAParser as RealUAParser } from "ua-parser-js";
import { createClient, custom } from "viem";
import * as realActions from "viem/actions";
import { sepolia } from "viem/chains";
import { describe, expect, it } from "vitest";
import * as ens from "../../components/wallet/bundle-shims/ens-normalize.js";
import { UAParser } from "../../components/wallet/bundle-shims/ua-parser.js";
import * as lazyActions from "../../components/wallet/bundle-shims/viem-actions.js";
import * as wagmiCore from "../../components/wallet/bundle-shims/wagmi-core.js";

describe("viem/actions stand-in", () => {
  const lazy = lazyActions as unknown as Record<string, unknown>;
  const real = realActions as unknown as Record<string, unknown>;

  it("exports every name viem/actions exports, and nothing else", () => {
    expect(Object.keys(lazy).sort()).toEqual(Object.keys(real).sort());
  });

  it("replaces only actions that are async in viem, keeping their names", () => {
    const replaced = Object.keys(lazy).filter((k) => lazy[k] !== real[k]);
    expect(replaced.length).toBeGreaterThan(30);
    for (const name of replaced) {
      expect(real[name], name).toBeTypeOf("function");
      expect((real[name] as () => unknown).constructor.name, name).toBe("AsyncFunction");
      expect((lazy[name] as () => unknown).name, name).toBe(name);
    }
  });

  it("a lazy action loads and runs viem's own", async () => {
    const calls: { method: string; params: unknown }[] = [];
    const client = createClient({
      chain: sepolia,
      transport: custom({
        request: async ({ method, params }: { method: string; params: unknown }) => {
          calls.push({ method, params });
          return "0x10";
        },
      }),
    });
    const address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    await expect(lazyActions.getBalance(client, { address })).resolves.toBe(16n);
    await expect(realActions.getBalance(client, { address })).resolves.toBe(16n);
    expect(calls).toEqual([
      { method: "eth_getBalance", params: [address, "latest"] },
      { method: "eth_getBalance", params: [address, "latest"] },
    ]);
  });
});

describe("@wagmi/core stand-in", () => {
  it("getPublicClient is the config's client, without the publicActions decoration", () => {
    const config = createConfig({ chains: [sepolia], transports: { [sepolia.id]: http("http://127.0.0.1:1") } });
    const client = wagmiCore.getPublicClient(config);
    expect(client?.uid).toBe(getClient(config).uid);
    expect((client as unknown as Record<string, unknown>).getBalance).toBeUndefined();
    expect(wagmiCore.createConfig).toBe(createConfig);
  });
});

describe("ua-parser-js stand-in", () => {
  const agents = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "Mozilla/5.0 (X11; Fedora; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  ];
  it.each(agents)("os.name of %s is the one ua-parser-js gives for RainbowKit's platform test", (ua) => {
    const rk = (name: string | undefined) =>
      name === "Windows"
        ? "Windows"
        : name === "macOS"
          ? "macOS"
          : ["Ubuntu", "Mint", "Fedora", "Debian", "Arch", "Linux"].includes(name ?? "")
            ? "Linux"
            : "Desktop";
    const real = new RealUAParser(ua).getOS().name;
    expect(rk(UAParser(ua).os.name)).toBe(rk(real));
  });
});

describe("ens-normalize stand-in", () => {
  it("throws, so RainbowKit's try/catch around it yields no avatar", () => {
    const safeNormalize = (name: string) => {
      try {
        return ens.ens_normalize(name);
      } catch {
        return undefined;
      }
    };
    expect(safeNormalize("vitalik.eth")).toBeUndefined();
  });
});
