/**
 * Preloaded (NODE_OPTIONS=--require) into the service of the browser test's default-install pass,
 * the one with the address guard on. This machine has no DNS; a default install resolves the hosts
 * the request examples name (example.com, example.org, example.net and their subdomains) to public
 * addresses, and the guard's save-time check (node:dns/promises) is given such an answer for them.
 * Connections resolve through node:dns's callback lookup, left as it is: nothing is ever sent there.
 */
const dnsPromises = require('node:dns/promises');

const EXAMPLE_HOST = /(^|\.)example\.(com|org|net)\.?$/i;
// A public address (example.com's own); never dialled (see above).
const PUBLIC_ADDRESS = '93.184.215.14';
const lookup = dnsPromises.lookup;

dnsPromises.lookup = function exampleHostsLookup(host, options) {
  if (!EXAMPLE_HOST.test(String(host))) return lookup.call(this, host, options);
  const answer = { address: PUBLIC_ADDRESS, family: 4 };
  const all = typeof options === 'object' && options !== null && options.all;
  return Promise.resolve(all ? [answer] : answer);
};
