-- {fn} names are case sensitive: the JDBC function table is upper case.
SELECT {fn ucase('q')};
