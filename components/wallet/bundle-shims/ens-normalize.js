/**
 * Browser bundle only (next.config.ts `turbopack.resolveAlias`, condition `browser`): stands in
 * for `@adraffy/ens-normalize` (about 25 KB gzipped of Unicode tables). Its only caller in our
 * client bundles is RainbowKit's ENS avatar lookup for its account modal, which wraps the call in
 * try/catch and shows no avatar when it throws — our pages never open that modal. Nothing on
 * the client resolves ENS names; the server never takes this path.
 */
function unavailable() {
  throw new Error("ENS name normalisation is not bundled in the browser build.");
}

export const ens_normalize = unavailable;
export const ens_beautify = unavailable;
export const ens_normalize_fragment = unavailable;
export const ens_split = unavailable;
export const ens_tokenize = unavailable;
export const ens_emoji = () => [];
export const is_combining_mark = () => false;
export const should_escape = () => false;
export const nfc = (cps) => [...String.fromCodePoint(...cps).normalize("NFC")].map((c) => c.codePointAt(0));
export const nfd = (cps) => [...String.fromCodePoint(...cps).normalize("NFD")].map((c) => c.codePointAt(0));
