-- 6350 loan interest (bills of category loan_interest) in the charts
-- made before: a chart is only ever added to, and the ledger's
-- EnsureChart would add it on first use anyway; this makes it appear in
-- every workspace's chart and trial balance at once.
INSERT INTO ledger_accounts (id, workspace_id, code, role, created_at)
SELECT {{if .Postgres}}gen_random_uuid(){{else}}lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-8' || substr(h, 18, 3) || '-' || substr(h, 21, 12)){{end}},
    workspace_id, '6350', 'cost_interest', created_at
FROM (SELECT a.workspace_id, MIN(a.created_at) AS created_at{{if not .Postgres}}, hex(randomblob(16)) AS h{{end}}
    FROM ledger_accounts AS a
    WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts AS b WHERE b.workspace_id = a.workspace_id AND b.code = '6350')
    GROUP BY a.workspace_id) AS x;
