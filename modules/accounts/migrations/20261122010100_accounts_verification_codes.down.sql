DROP TABLE verification_codes;
