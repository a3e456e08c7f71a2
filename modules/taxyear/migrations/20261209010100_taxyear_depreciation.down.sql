DROP TABLE taxyear_depreciation;
