import { isIP } from "node:net";

// Loopback checks for the development outbox (docs/decisions/003-outbox-without-smtp.md): it
// shows every tenant's sign-up and reset codes, so only this machine may ever read it.

/** A host name of APP_URL that can only mean this machine: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(host: string) {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return name === "localhost" || isLoopbackAddress(name);
}

/**
 * The TCP peer is this machine. Takes the socket's own address (never X-Forwarded-For, which
 * any client can write); IPv4-mapped IPv6 (`::ffff:127.0.0.1`) counts as its IPv4 address.
 */
export function isLoopbackAddress(address: string | undefined | null) {
  if (!address) return false;
  const mapped = address.toLowerCase().match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  const ip = mapped ? mapped[1] : address.toLowerCase();
  switch (isIP(ip)) {
    case 4:
      return ip.startsWith("127.");
    case 6:
      return /^(0{0,4}:){2,7}0{0,3}1$/.test(ip) && ip.replace(/[0:]/g, "") === "1";
    default:
      return false;
  }
}
