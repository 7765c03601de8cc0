/**
 * The server's Content-Security-Policy allows style elements only with the nonce it puts in the page's
 * `csp-nonce` meta tag. Radix's scroll lock (react-style-singleton, via get-nonce) adds a style element
 * and takes its nonce from `__webpack_nonce__`, so it is set from the meta tag before anything renders.
 */
const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content');
if (nonce) (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = nonce;
