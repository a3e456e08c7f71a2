DROP TABLE platform_info;
