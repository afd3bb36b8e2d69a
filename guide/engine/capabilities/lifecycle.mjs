// Support lifecycles as data: the last day each release series gets fixes (`eol`, ISO date or month) and,
// where the project announces one, the day it drops to security fixes only (`security`). rules.mjs compares
// them with the generation date, so a bundle generated next year warns about what has ended by then.
// Rows are newest first; `since` is the first version of the series, the row applies until the next one.
//
// Sources: CRuby — ruby-lang.org "Ruby Maintenance Branches" (3.2 ended with 3.2.11, March 2026; 3.3 security-only
// until March 2027; config-facts §9). Rails — guides.rubyonrails.org/maintenance_policy.html: bug fixes for one
// year and security fixes for two years after the first release of a series (7.2.0 2024-08-09, 8.0.0 2024-11-07,
// 8.1.0 2025-10-22). PostgreSQL — postgresql.org/support/versioning (five years per major). MySQL — "MySQL
// Releases: Innovation and LTS" (8.0 end of life April 2026; 8.4 LTS to April 2032). MariaDB — mariadb.org
// about/#maintenance-policy, release table (10.6 to July 2026, 10.11 to February 2028, 11.4 to May 2029, 11.8 LTS,
// released 2025-06-04, to June 2028). Months without a day mean the end of that month may vary by a few days.
export const LIFECYCLE = {
  cruby: [
    { since: '4.0', eol: '2029-03' },
    { since: '3.4', eol: '2028-03' },
    { since: '3.3', eol: '2027-03', security: '2026-03' },
    { since: '3.2', eol: '2026-03' },
    { since: '0', eol: '2025-03' },
  ],
  rails: [
    { since: '8.1', eol: '2027-10-22', security: '2026-10-22' },
    { since: '8.0', eol: '2026-11-07', security: '2025-11-07' },
    { since: '7.2', eol: '2026-08-09', security: '2025-08-09' },
    { since: '0', eol: '2025-10-05' }, // 7.1.0 was released 2023-10-05
  ],
  postgresql: [
    { since: '18', eol: '2030-11-14' }, { since: '17', eol: '2029-11-08' }, { since: '16', eol: '2028-11-09' },
    { since: '15', eol: '2027-11-11' }, { since: '14', eol: '2026-11-12' }, { since: '0', eol: '2025-11-13' },
  ],
  mysql: [
    { since: '9.0' }, // Innovation releases, supported until the next one: no fixed date
    { since: '8.4', eol: '2032-04' },
    { since: '8.1', eol: '2024-04' }, // 8.1–8.3 were Innovation releases
    { since: '8.0', eol: '2026-04' },
    { since: '0', eol: '2023-10' },
  ],
  mariadb: [
    { since: '11.8', eol: '2028-06' }, { since: '11.5', eol: '2025-11' }, { since: '11.4', eol: '2029-05' },
    { since: '11.0', eol: '2025-06' }, { since: '10.11', eol: '2028-02' }, { since: '10.7', eol: '2023-11' },
    { since: '10.6', eol: '2026-07' }, { since: '0', eol: '2025-06' },
  ],
};
