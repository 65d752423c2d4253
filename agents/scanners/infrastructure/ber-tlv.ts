// ASN.1 BER/DER tag-length-value encoding with a definite length (X.690 §8.1.3), as SNMP (snmp.ts) and SPNEGO (smb-session.ts) messages nest it:
// short form below 128 bytes, long form with one or two length bytes above (every message here is smaller
// than 64 KiB).
export function tlv(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const length =
    body.length < 0x80
      ? Buffer.from([body.length])
      : body.length < 0x100
        ? Buffer.from([0x81, body.length])
        : Buffer.from([0x82, body.length >> 8, body.length & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
}
