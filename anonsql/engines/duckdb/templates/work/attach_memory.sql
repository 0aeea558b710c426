ATTACH ':memory:' AS {{ name | ident }}
