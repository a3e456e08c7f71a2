DROP TABLE oidc_codes;
