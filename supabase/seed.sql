-- The catalogue: the seven agent roles Vigil sells (docs/product.md §9, prices in USD cents) and the plan tiers.
-- Fixed ids and `on conflict do nothing`: running this again changes nothing and keeps edits made since.

insert into public.agent_roles (id, name, description, role_type, price_monthly, display_order, features) values
  ('a9e1c0de-0001-4000-8000-000000000001', 'Cybersecurity Analyst',
   'Watches your logs and alerts around the clock, triages what matters and escalates real threats.',
   'cybersecurity_analyst', 29900, 1,
   array['24/7 alert triage and prioritisation', 'Log correlation across your systems',
         'Daily security briefings', 'Escalation with evidence for every real threat']),
  ('a9e1c0de-0002-4000-8000-000000000002', 'Penetration Tester',
   'Continuously probes your web apps, APIs and hosts the way an attacker would, with proof for every finding.',
   'penetration_tester', 39900, 2,
   array['Web application testing (OWASP Top 10)', 'API security testing from your OpenAPI spec',
         'Network and service exposure scans', 'Exploitability evidence and CVSS scores',
         'Retest on demand after a fix']),
  ('a9e1c0de-0003-4000-8000-000000000003', 'Incident Responder',
   'Contains incidents in seconds: isolates affected assets, collects evidence and guides recovery.',
   'incident_response', 34900, 3,
   array['Automated containment playbooks', 'Evidence collection at first alert',
         'Guided recovery steps', 'Post-incident reports with lessons learned']),
  ('a9e1c0de-0004-4000-8000-000000000004', 'Forensics Investigator',
   'Reconstructs what happened, when and how, preserving a defensible chain of custody.',
   'forensics_investigator', 44900, 4,
   array['Timeline reconstruction', 'Log and artifact analysis', 'Chain-of-custody records',
         'Root-cause findings for insurers and auditors']),
  ('a9e1c0de-0005-4000-8000-000000000005', 'Threat Intelligence',
   'Tracks the threat actors, exploits and leaked credentials that concern your business.',
   'threat_intelligence', 29900, 5,
   array['Indicator enrichment and file reputation', 'Leaked-credential and exposure monitoring',
         'Exploit tracking for your software stack', 'Weekly threat digests']),
  ('a9e1c0de-0006-4000-8000-000000000006', 'Application Security',
   'Reviews your applications for the OWASP Top 10 and misconfigurations before attackers find them.',
   'application_security', 39900, 6,
   array['OWASP Top 10 checks', 'Security header and cookie review', 'TLS configuration review',
         'Remediation guidance for developers']),
  ('a9e1c0de-0007-4000-8000-000000000007', 'Cloud Security',
   'Audits your cloud footprint for exposed services, weak TLS and risky configuration drift.',
   'cloud_security', 39900, 7,
   array['Exposure mapping of public endpoints', 'TLS and certificate expiry checks',
         'Configuration drift alerts', 'CIS benchmark guidance'])
on conflict do nothing;

insert into public.pricing_plans (id, name, tier, description, price_monthly, price_yearly, features) values
  ('b1a2c3d4-0001-4000-8000-000000000001', 'Starter', 'starter',
   'One agent watching one business: the essentials, around the clock.', 29900, 299000,
   '["1 security agent", "Automated scans every 24 hours", "Email alerts", "Monthly compliance report", "7-day free trial"]'),
  ('b1a2c3d4-0002-4000-8000-000000000002', 'Professional', 'professional',
   'A team of agents for growing companies with customer data to protect.', 99900, 999000,
   '["Up to 4 security agents", "Real-time alerts and webhooks", "Weekly SOC 2 and ISO 27001 reports", "ML insights and prioritised recommendations", "7-day free trial"]'),
  ('b1a2c3d4-0003-4000-8000-000000000003', 'Enterprise', 'enterprise',
   'All seven agents, custom schedules and a named response team.', 249900, 2499000,
   '["All 7 security agents", "Custom report schedules", "HIPAA and SOC 2 Type II evidence packs", "Critical response under 15 minutes", "Dedicated success manager"]')
on conflict do nothing;
