DROP TABLE agreement_blocks_version;
--bun:split
DROP TABLE agreement_blocks;
