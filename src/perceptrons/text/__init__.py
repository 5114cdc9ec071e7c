"""Raw text into words and sentences, as UD English EWT cuts them."""
