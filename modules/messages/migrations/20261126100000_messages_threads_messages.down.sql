DROP TABLE messages;
--bun:split
DROP TABLE message_threads;
