DROP TABLE IF EXISTS proposal_applications;
--bun:split
DROP TABLE IF EXISTS proposals;
