DELETE FROM ledger_accounts WHERE code = '6350' AND role = 'cost_interest'
    AND NOT EXISTS (SELECT 1 FROM ledger_lines AS l WHERE l.workspace_id = ledger_accounts.workspace_id AND l.account_code = '6350');
