{{if .Postgres}}
ALTER TABLE charges ADD CONSTRAINT charges_expense_id_fkey FOREIGN KEY (expense_id) REFERENCES expenses (id);
{{end}}
