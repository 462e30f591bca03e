-- USE with no name: the statement choice fails at USE.
USE;
