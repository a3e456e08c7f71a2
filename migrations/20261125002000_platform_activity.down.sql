DROP TABLE activity;
