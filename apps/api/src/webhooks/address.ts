import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Whether an address is one a webhook may go to: global unicast only. Loopback, private (10/8,
 * 172.16/12, 192.168/16, carrier NAT), link-local (169.254/16 with the cloud metadata service,
 * fe80::/10), unique-local (fc00::/7), unspecified, multicast and reserved ranges are refused, as is
 * an IPv4 address written as IPv6 (::ffff:10.0.0.1). Loopback only where the server allows http to it
 * (WEBHOOK_HTTP_LOOPBACK, the tests).
 */
export function publicAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

/**
 * Whether the URL's host is, and every address it resolves to is, public: checked at registration
 * and again before each delivery, since a name may be pointed elsewhere later. A name that does not
 * resolve passes (it reaches nothing; the delivery fails and is retried like any refused connection).
 */
export async function webhookTargetPublic(url: string, allowLoopback: boolean): Promise<boolean> {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.isValid(host)) return publicAddress(host, allowLoopback);
  const addresses = await lookup(host, { all: true, verbatim: true }).catch(() => []);
  return addresses.every(({ address }) => publicAddress(address, allowLoopback));
}
