import { describe, expect, it } from "vitest";
import { depositProgress } from "@/components/pay/lib/deposit";
import { initialLiveState, isFinal, type LiveEvent, liveReducer, phaseOf } from "@/components/pay/lib/live-status";
import type { Checkout } from "@/lib/operations/checkout-schemas";

/**
 * The pay page's one live view (LiveLinkProvider). Its sources answer in any order: the server's
 * render (first, and again after router.refresh), the link poll, the deposit poll. Before, each
 * panel kept its own view and the summary kept the server's, so the page said "Payment complete"
 * in a panel and "Awaiting payment" in the badge, and a late answer could put either back.
 */
function view(status: Checkout["status"], items: Checkout["items"][number]["state"][], extra: Partial<Checkout> = {}): Checkout {
  return {
    status,
    items: items.map((state, i) => ({ requestId: `req_${i}`, state })),
    txHash: null,
    ...extra,
  } as unknown as Checkout;
}

const pendingDue = view("pending", ["due"]);
const pendingReceived = view("pending", ["paid"]);
const completed = view("completed", ["paid"], { txHash: `0x${"ab".repeat(32)}` });

const run = (events: LiveEvent[], start = pendingDue) => events.reduce(liveReducer, initialLiveState(start));
const seen = (v: Checkout): LiveEvent => ({ type: "view", view: v });

describe("the pay page's live view never steps back", () => {
  it("phases: due, received (nothing due, being settled), then final", () => {
    expect(phaseOf(pendingDue)).toBe("due");
    expect(phaseOf(pendingReceived)).toBe("received");
    expect(phaseOf(completed)).toBe("completed");
    expect(phaseOf(view("expired", ["due"]))).toBe("expired");
    expect(isFinal("received")).toBe(false);
    expect(isFinal("completed")).toBe(true);
  });

  it("a poll answer that left before the payment settled, landing after one that saw it, changes nothing", () => {
    const state = run([seen(completed), seen(pendingDue)]);
    expect(state.phase).toBe("completed");
    expect(state.view).toBe(completed);
  });

  it("the server's render after router.refresh, if it lags the poll, does not put 'Awaiting payment' back", () => {
    // Poll: received, then completed; a render produced in between arrives last.
    const state = run([seen(pendingReceived), seen(completed), seen(pendingReceived), seen(pendingDue)]);
    expect(state.phase).toBe("completed");
  });

  it("moves forward through every step, keeping the view that brought the final one", () => {
    expect(run([seen(pendingReceived)]).phase).toBe("received");
    const later = view("completed", ["paid"], { txHash: "0xother" });
    const state = run([seen(pendingReceived), seen(completed), seen(later)]);
    expect(state.phase).toBe("completed");
    expect(state.view.txHash).toBe(completed.txHash);
  });

  it("the deposit address emptying after the whole amount arrived is its forwarding, not 'Waiting for your transfer'", () => {
    const token = { symbol: "USDC" };
    const events: LiveEvent[] = [
      { type: "deposit", received: "0", remaining: "42" },
      { type: "deposit", received: "40", remaining: "2" },
      { type: "deposit", received: "42", remaining: "0" },
      // The relayer forwarded it to the merchant through the fee proxy: the address holds nothing again.
      { type: "deposit", received: "0", remaining: "42" },
    ];
    const state = run(events);
    expect(state.transfer).toBe("full");
    const last = depositProgress({ received: "0", remaining: "42", amount: "42", token } as never, "Acme", state.transfer === "full");
    expect(last.text).toMatch(/^Transfer received\. Forwarding it to Acme/);
    expect(last.tone).toBe("done");
    // Nothing seen yet: waiting.
    expect(depositProgress({ received: "0", remaining: "42", amount: "42", token } as never, "Acme").tone).toBe("wait");
    // Part, then the address emptied (never happens without the whole amount): still "part" at most.
    expect(run(events.slice(0, 2)).transfer).toBe("part");
    expect(run([...events.slice(0, 2), events[0]!]).transfer).toBe("part");
  });
});
