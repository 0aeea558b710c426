DETACH DATABASE IF EXISTS {{ name | ident }}
