// Rules of the service checks (FTP, databases, SMB, SNMP, the r-services); spread into the
// infrastructure scanner's table in rules.ts.
import type { Rule } from '../core/rule.ts';

const A01 = 'A01:2021 Broken Access Control';
const A02 = 'A02:2021 Cryptographic Failures';
const A07 = 'A07:2021 Identification and Authentication Failures';

const openDatabase = (product: string, how: string, remediation: string): Rule => ({
  title: `${product} ${how}`,
  cwe: 'CWE-306',
  owasp: A07,
  family: 'access',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
  remediation,
});

export const serviceRules = {
  'infra.ftp.cleartext': {
    title: 'FTP service without TLS',
    cwe: 'CWE-319',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:L/A:N',
    remediation:
      'Replace FTP with SFTP, or require FTPS: vsftpd "ssl_enable=YES", "force_local_logins_ssl=YES", "force_local_data_ssl=YES" with a certificate; ProFTPD "TLSEngine on" and "TLSRequired on".',
  },
  'infra.ftp.anonymous-write': {
    title: 'Anonymous FTP users can write files',
    cwe: 'CWE-284',
    owasp: A01,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:L',
    remediation:
      'Stop anonymous uploads (vsftpd: anon_upload_enable=NO, anon_mkdir_write_enable=NO, anon_other_write_enable=NO; or anonymous_enable=NO), remove write permission for the FTP user on every anonymous directory, and check the writable directories for files you did not put there.',
  },
  'infra.mysql.anonymous': openDatabase(
    'MySQL/MariaDB',
    'accepts an anonymous login',
    "Drop the anonymous accounts (DROP USER ''@'localhost', ''@'%' and ''@'<hostname>'; mariadb-secure-installation does it), and bind the server to a private interface.",
  ),
  'infra.mysql.empty-root-password': {
    ...openDatabase(
      'MySQL/MariaDB',
      'root account has no password',
      "Give root a strong password or unix_socket authentication only (ALTER USER 'root'@'%' IDENTIFIED VIA unix_socket, or drop remote root accounts), and bind the server to a private interface.",
    ),
    cwe: 'CWE-1393',
  },
  'infra.postgresql.trust': openDatabase(
    'PostgreSQL',
    'accepts logins without a password',
    'Replace "trust" with "scram-sha-256" in every host line of pg_hba.conf (and set passwords), reload PostgreSQL, and listen only on private interfaces.',
  ),
  'infra.couchdb.unauthenticated': openDatabase(
    'CouchDB',
    'reachable without authentication',
    'Create an admin user (CouchDB 3 refuses to start without one), set require_valid_user = true in [chttpd], and bind to a private interface.',
  ),
  'infra.smb.null-session': {
    title: 'SMB server allows anonymous (null) sessions',
    cwe: 'CWE-287',
    owasp: A07,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'Refuse anonymous access to IPC$: Samba "restrict anonymous = 2" (and "map to guest = Never" unless guest shares are needed); Windows: RestrictAnonymous=1, RestrictAnonymousSAM=1, "Network access: Let Everyone permissions apply to anonymous users" disabled.',
  },
  'infra.smb.anonymous-share': {
    title: 'SMB share readable without credentials',
    cwe: 'CWE-284',
    owasp: A01,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
    remediation:
      'Let only named users open shares that are not meant for everyone. Samba: "guest ok = no" (alias "public = no") and "valid users = ..." on each such share, "map to guest = Never" and "restrict anonymous = 2" in [global] (restrict anonymous alone does not close a guest share); Windows: remove Everyone, Guests and ANONYMOUS LOGON from the share and folder permissions, keep "Network access: Restrict anonymous access to Named Pipes and Shares" enabled and NullSessionShares empty.',
  },
  'infra.smb.signing-not-required': {
    title: 'SMB signing not required',
    cwe: 'CWE-300',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:L/A:N',
    remediation:
      'Require SMB signing so that sessions cannot be relayed or altered in transit: Samba "server signing = mandatory"; Windows: "Microsoft network server: Digitally sign communications (always)" enabled (RequireSecuritySignature = 1).',
  },
  'infra.snmp.default-community': {
    title: 'SNMP answers a default community string',
    cwe: 'CWE-1393',
    owasp: A07,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
    remediation:
      'Remove the public and private communities (net-snmp: the rocommunity/rwcommunity lines of snmpd.conf), use SNMPv3 with authPriv users, and allow SNMP only from the monitoring hosts.',
  },
  'infra.rlogin.open': {
    title: 'rlogin service open',
    cwe: 'CWE-319',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      'Disable rlogin, rsh and rexec (remove rsh-server / rsh-redone-server and their inetd lines) and use SSH; rlogin sends passwords in clear text and trusts .rhosts.',
  },
  'infra.rsh.open': {
    title: 'rsh service open',
    cwe: 'CWE-319',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      "Disable rsh, rlogin and rexec (remove rsh-server / rsh-redone-server and their inetd or systemd socket units) and use SSH; rsh authenticates by the client's address and claimed user name alone, and sends commands and output in clear text.",
  },
  'infra.rsh.trusted': {
    title: 'rsh runs commands without a password (host-based trust)',
    cwe: 'CWE-290',
    owasp: A07,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    remediation:
      'Turn rsh off now (remove rsh-server / rsh-redone-server) and use SSH with keys. Until then, delete ~/.rhosts files (root\'s first) and every "+" from /etc/hosts.equiv, and remove pam_rhosts from /etc/pam.d/rsh. Review what the trusting accounts ran: anyone who could reach the port could run commands as them.',
  },
  'infra.rsh.trusted-host': {
    title: 'rsh trusts the client host for non-root accounts (hosts.equiv)',
    cwe: 'CWE-290',
    owasp: A07,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      'Turn rsh and rlogin off (remove rsh-server / rsh-redone-server) and use SSH with keys. Until then, empty /etc/hosts.equiv: a "+" line trusts every host, and a host line without a user name trusts that host, for every account but root whose name the client claims (rlogin honours the same file). Delete ~/.rhosts files, remove pam_rhosts from /etc/pam.d/rsh and /etc/pam.d/rlogin, and review what ran under accounts with a working shell.',
  },
  'infra.rexec.open': {
    title: 'rexec service open',
    cwe: 'CWE-319',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      'Disable rexec (remove the in.rexecd line from inetd.conf or its socket unit; rsh-server ships it) and use SSH; rexec sends the user name and password in clear text and lets anyone guess passwords.',
  },
} satisfies Record<string, Rule>;
