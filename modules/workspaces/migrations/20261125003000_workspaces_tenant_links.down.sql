DROP TABLE tenant_links;
