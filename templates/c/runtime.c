/* placeholder: the C runtime is being written */
