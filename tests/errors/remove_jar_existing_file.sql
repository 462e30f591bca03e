-- REMOVE JAR of a file that exists but was never added (weir adds no jar).
REMOVE JAR '$DATA/clicks.csv';
